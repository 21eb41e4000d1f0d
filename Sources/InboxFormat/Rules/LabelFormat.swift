import Foundation

/// How a date label is written: by ICU's pattern in a `DateFormatter`, or,
/// in a locale the formatter misreads, by that pattern's fields in a format
/// style of the locale itself.
///
/// Corelibs' `DateFormatter` reaches ICU through `CFLocale`, which drops a
/// script subtag it takes for its language's default (`Cyrl` for Serbian,
/// `Latn` for Tachelhit, `Guru` for Punjabi). ICU then reads the language
/// and region alone, in the region's script: `sr-Cyrl-ME` as `sr_ME`
/// (Latin), `shi-Latn` as `shi` (Tifinagh), `pa-Guru-PK` as `pa_PK`
/// (Arabic). Foundation's format styles read the locale as given, but they
/// offer no CLDR date or time style, only skeletons: the style keeps the
/// pattern's fields and widths, and the locale orders them and writes their
/// words. A test finds every locale ICU has, and each of their scripts in
/// each of their regions, written in its own words.
enum LabelFormat: Sendable {
  case pattern(DateFormatter)
  case fields(Date.FormatStyle)

  /// `formatter`, unless it misreads `locale`; then its pattern's fields in
  /// `locale` and `calendar` (which carries the zone).
  init(_ formatter: DateFormatter, locale: Locale, calendar: Calendar) {
    guard formatter.misreads(locale, calendar: calendar) else {
      self = .pattern(formatter)
      return
    }
    let style = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: calendar.timeZone)
    self = .fields(style.fields(ofPattern: formatter.dateFormat))
  }

  /// The label of `date`, a wall-clock instant (see ``DateWords``).
  func string(from date: Date) -> String {
    switch self {
    case .pattern(let formatter): formatter.string(from: date)
    case .fields(let style): style.format(date)
    }
  }
}

extension DateFormatter {
  /// Whether the formatter reads a locale other than `locale` (see
  /// ``LabelFormat``). Only a locale that names its script can be misread,
  /// and only where its language is likely written in another script in
  /// its region, since that is the script ICU supplies when the name is
  /// dropped (`sr-ME` is likely Latin, `zh-TW` Traditional Han as named);
  /// then the words the formatter has differ from the locale's own in
  /// `calendar`.
  func misreads(_ locale: Locale, calendar: Calendar) -> Bool {
    let language = Locale.Components(locale: locale).languageComponents
    guard let script = language.script else { return false }
    let unnamed = Locale.Language(components: .init(languageCode: language.languageCode, region: language.region))
    guard unnamed.script != script else { return false }
    var own = calendar
    own.locale = locale
    return monthSymbols != own.monthSymbols || weekdaySymbols != own.weekdaySymbols
      || amSymbol != own.amSymbol || pmSymbol != own.pmSymbol || eraSymbols != own.eraSymbols
  }
}

extension Date.FormatStyle {
  /// The fields of an ICU pattern at the pattern's widths, in this style's
  /// locale: `d. MMMM y.` gives the day, the wide month and the year, which
  /// the locale orders and joins. Literals, and the letters no date label's
  /// pattern has, are left out; a day period goes with the hour.
  func fields(ofPattern pattern: String) -> Date.FormatStyle {
    let runs = DateFormatter.letterRuns(ofPattern: pattern)
    let dayPeriod = runs.first { "abB".contains($0.letter) }
    let amPM: Symbol.Hour.AMPMStyle =
      switch dayPeriod?.count {
      case nil: .omitted
      case 4: .wide
      case 5: .narrow
      default: .abbreviated
      }
    let conversational = dayPeriod?.letter == "B"
    let hasRelatedYear = runs.contains { $0.letter == "r" }
    var style = self
    for (letter, count) in runs {
      switch letter {
      case "G": style = style.era(count == 4 ? .wide : count == 5 ? .narrow : .abbreviated)
      case "y": style = style.year(count == 1 ? .defaultDigits : count == 2 ? .twoDigits : .padded(count))
      case "r": style = style.year(.relatedGregorian(minimumLength: count))
      case "U" where !hasRelatedYear: style = style.year(.defaultDigits)
      case "M", "L":
        let widths: [Symbol.Month] = [.defaultDigits, .twoDigits, .abbreviated, .wide, .narrow]
        style = style.month(widths[min(count, widths.count) - 1])
      case "d": style = style.day(count == 1 ? .defaultDigits : .twoDigits)
      case "h", "H", "K", "k":
        let hour: Symbol.Hour =
          switch (conversational, count == 1) {
          case (false, true): .defaultDigits(amPM: amPM)
          case (false, false): .twoDigits(amPM: amPM)
          case (true, true): .conversationalDefaultDigits(amPM: amPM)
          case (true, false): .conversationalTwoDigits(amPM: amPM)
          }
        style = style.hour(hour)
      case "m": style = style.minute(count == 1 ? .defaultDigits : .twoDigits)
      default: continue
      }
    }
    return style
  }
}
