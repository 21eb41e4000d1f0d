import Foundation

extension DateFormatter {
  /// Makes the formatter's time pattern use the hour cycle its locale asks
  /// for with `-u-hc-`, when the locale's short time style ignored it.
  ///
  /// ICU forces an hour cycle through CLDR's `timeData`: the clock the region
  /// allows with that cycle, so `fr-FR-u-hc-h12` keeps France's flexible day
  /// period (`9:45 mat.`). Regions that allow no 12-hour clock at all (Russia,
  /// Sweden, Czechia…) keep `HH:mm`, and the user's choice would be lost; the
  /// pattern is then built from the `j` skeleton, which always honours `-u-hc-`
  /// (`ru-RU-u-hc-h12` gives `12:30 AM`).
  func honourExplicitHourCycle() {
    guard let requested = Locale.Components(locale: locale).hourCycle,
      Self.hourCycle(ofPattern: dateFormat) != requested
    else { return }
    setLocalizedDateFormatFromTemplate("jmm")
  }

  /// The hour cycle of the first hour field in an ICU pattern.
  static func hourCycle(ofPattern pattern: String) -> Locale.HourCycle? {
    for (letter, _) in letterRuns(ofPattern: pattern) {
      switch letter {
      case "h": return .oneToTwelve
      case "K": return .zeroToEleven
      case "H": return .zeroToTwentyThree
      case "k": return .oneToTwentyFour
      default: continue
      }
    }
    return nil
  }

  /// An ICU pattern's fields: its runs of one ASCII letter, outside quoted
  /// literals (`'h'`; `''` is a quote): `d. MMM 'de' y` gives (d, 1), (M, 3), (y, 1).
  static func letterRuns(ofPattern pattern: String) -> [(letter: Character, count: Int)] {
    var runs: [(letter: Character, count: Int)] = []
    var quoted = false
    var previous: Character?
    for character in pattern {
      if character == "'" {
        quoted.toggle()
        previous = nil
        continue
      }
      guard !quoted, character.isASCII, character.isLetter else {
        previous = nil
        continue
      }
      if character == previous {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((character, 1))
      }
      previous = character
    }
    return runs
  }
}
