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

  /// The hour cycle of the first hour field in an ICU pattern, skipping quoted literals.
  static func hourCycle(ofPattern pattern: String) -> Locale.HourCycle? {
    var quoted = false
    for character in pattern {
      switch character {
      case "'": quoted.toggle()
      case "h" where !quoted: return .oneToTwelve
      case "K" where !quoted: return .zeroToEleven
      case "H" where !quoted: return .zeroToTwentyThree
      case "k" where !quoted: return .oneToTwentyFour
      default: continue
      }
    }
    return nil
  }
}
