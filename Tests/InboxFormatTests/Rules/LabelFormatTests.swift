import Foundation
import Testing

@testable import InboxFormat

/// Date labels are written in the locale asked for, script included, even
/// where corelibs' `DateFormatter` reads another (``LabelFormat``).
@Suite struct LabelFormatTests {
  /// Every locale ICU has, and every script one of its languages is written
  /// in, in every region that language has a locale in: `uz-Latn-AF` beside
  /// `uz-Arab-AF`, `pa-Guru-PK` beside `pa-Arab-PK`.
  static let locales: [Locale] = {
    var languages: [String: (scripts: Set<String>, regions: Set<String>)] = [:]
    for identifier in Locale.availableIdentifiers {
      let components = Locale.Components(identifier: identifier).languageComponents
      guard let language = components.languageCode?.identifier else { continue }
      if let script = components.script { languages[language, default: ([], [])].scripts.insert(script.identifier) }
      if let region = components.region { languages[language, default: ([], [])].regions.insert(region.identifier) }
    }
    var identifiers = Set(Locale.availableIdentifiers.map { Locale.identifier(.bcp47, from: $0) })
    for (language, (scripts, regions)) in languages {
      for script in scripts {
        for region in regions { identifiers.insert("\(language)-\(script)-\(region)") }
      }
    }
    return identifiers.sorted().map(Locale.init(identifier:))
  }()

  /// The words of `locale` in its own calendar, on wall-clock time.
  static func words(_ locale: Locale, hourCycle: HourCycle? = nil) -> DateWords {
    DateWords(locale: locale, calendar: locale.calendar, hourCycle: hourCycle)
  }

  /// A month's name in `locale`, as Foundation's format style writes the field alone.
  static func monthName(
    _ width: Date.FormatStyle.Symbol.Month, onLocalDay day: Int64, in locale: Locale
  ) -> String {
    var calendar = locale.calendar
    calendar.timeZone = wallClockZone
    return Date.VerbatimFormatStyle(
      format: "\(month: width)", locale: locale, timeZone: wallClockZone, calendar: calendar
    ).format(noon(ofLocalDay: day))
  }

  /// A day in the middle of each month of 2022, by local day number
  /// (19,007 is 2022-01-15).
  static let midMonths: [Int64] = (0..<12).map { 19_007 + $0 * 30 }

  /// The long date names the month as the locale does (`janvier`,
  /// `јануар`), and the compact month and day abbreviates it so.
  @Test func everyLocaleWritesItsOwnMonths() {
    var named = 0
    for locale in Self.locales {
      let words = Self.words(locale)
      // Many locales write the month in digits (`2022年1月15日`, `15.1.`).
      let formatter = DateWords.formatter(
        locale: formattableLocale(locale), calendar: locale.calendar, date: .long, time: .none)
      let longNamesMonths = formatter.dateFormat.contains("MMMM")
      formatter.setLocalizedDateFormatFromTemplate("MMMd")
      let compactNamesMonths = formatter.dateFormat.contains("MMM") || formatter.dateFormat.contains("LLL")
      for day in Self.midMonths {
        if longNamesMonths {
          let long = words.text(of: .longDate(localDay: day))
          let wide = Self.monthName(.wide, onLocalDay: day, in: locale)
          #expect(long.contains(wide), "\(locale.identifier): \(long) lacks \(wide)")
          named += 1
        }
        let abbreviated = Self.monthName(.abbreviated, onLocalDay: day, in: locale)
        // A month abbreviated to its number may be in other digits (`༡༢`, `12`).
        if compactNamesMonths, abbreviated.contains(where: \.isLetter) {
          let compact = words.text(of: .monthDay(localDay: day))
          #expect(compact.contains(abbreviated), "\(locale.identifier): \(compact) lacks \(abbreviated)")
        }
      }
    }
    // Most locales name the month in their long date.
    #expect(named > Self.locales.count * 12 / 2)
  }

  /// A 12-hour time carries the locale's own day period, one of the three
  /// kinds CLDR has (`AM`, `noon`, `in the morning`).
  @Test func everyLocaleWritesItsOwnDayPeriods() {
    let morning = instant(3 * 86_400 + 9 * 3_600 + 45 * 60)
    for locale in Self.locales {
      let time = Self.words(locale, hourCycle: .twelveHour).time(atLocalMinute: 3 * 1_440 + 9 * 60 + 45)
      let asked = HourCycle.twelveHour.applied(to: formattableLocale(locale))
      let periods: [Date.FormatStyle.Symbol.DayPeriod] = [
        .standard(.abbreviated), .with12s(.abbreviated), .conversational(.abbreviated),
      ]
      let names = periods.map {
        Date.VerbatimFormatStyle(
          format: "\(dayPeriod: $0)", locale: asked, timeZone: wallClockZone, calendar: Calendar(identifier: .gregorian)
        ).format(morning)
      }
      #expect(names.contains { time.contains($0) }, "\(locale.identifier): \(time) has none of \(names)")
    }
  }

  /// The formatter is kept wherever it writes the locale's own era, month,
  /// weekday and day period, in the locale's calendar and in others: the
  /// locale's CLDR patterns are left only where the words would be wrong.
  @Test func theFormatterIsLeftOnlyWhereItMisreads() {
    var misread: [String] = []
    let calendars: [Calendar.Identifier?] = [nil, .gregorian, .japanese, .islamicUmmAlQura, .hebrew, .chinese]
    for locale in Self.locales {
      for identifier in calendars {
        var calendar = identifier.map(Calendar.init(identifier:)) ?? locale.calendar
        calendar.timeZone = wallClockZone
        let formattable = formattableLocale(locale)
        let formatter = DateWords.formatter(locale: formattable, calendar: calendar, date: .long, time: .none)
        let format = LabelFormat(formatter, locale: formattable, calendar: calendar)
        formatter.dateFormat = "G MMMM EEEE a"
        let own = Date.VerbatimFormatStyle(
          format: "\(era: .abbreviated) \(month: .wide) \(weekday: .wide) \(dayPeriod: .standard(.abbreviated))",
          locale: formattable, timeZone: wallClockZone, calendar: calendar)
        let writesOwnWords = Self.midMonths.allSatisfy {
          formatter.string(from: noon(ofLocalDay: $0)) == own.format(noon(ofLocalDay: $0))
        }
        switch format {
        case .pattern: #expect(writesOwnWords, "\(locale.identifier) \(calendar.identifier)")
        case .fields:
          #expect(!writesOwnWords, "\(locale.identifier) \(calendar.identifier)")
          if identifier == nil { misread.append(locale.identifier) }
        }
      }
    }
    // A handful of locales, each naming a script.
    #expect(!misread.isEmpty && misread.count < 20, "\(misread)")
    #expect(misread.allSatisfy { Locale.Components(identifier: $0).languageComponents.script != nil })
  }

  /// Serbian in Cyrillic in Montenegro, which corelibs' formatter reads in
  /// Latin, and Tachelhit in Latin, which it reads in Tifinagh.
  @Test func theMisreadLocalesSpeakTheirScripts() {
    let sr = Self.words(Locale(identifier: "sr-Cyrl-ME"), hourCycle: .twelveHour)
    #expect(sr.text(of: .longDate(localDay: 18_995)) == "3. јануар 2022.")
    #expect(sr.text(of: .monthDay(localDay: 18_995)) == "3. јан")
    #expect(sr.time(atLocalMinute: 18_995 * 1_440 + 9 * 60 + 45) == "09:45 јутро")
    let shi = Self.words(Locale(identifier: "shi-Latn"))
    #expect(shi.text(of: .longDate(localDay: 18_995)) == "3 innayr 2022")
    #expect(shi.text(of: .monthDay(localDay: 18_995)) == "3 inn")
  }

  @Test func aPatternsFieldsAndWidths() {
    let runs = DateFormatter.letterRuns(ofPattern: "d. MMMM y. 'u' HH:mm")
    #expect(runs.map { "\($0.letter)\($0.count)" } == ["d1", "M4", "y1", "H2", "m2"])
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = wallClockZone
    let day = noon(ofLocalDay: 18_995)  // 2022-01-03
    func written(_ pattern: String, _ locale: String) -> String {
      Date.FormatStyle(locale: Locale(identifier: locale), calendar: calendar, timeZone: wallClockZone)
        .fields(ofPattern: pattern).format(day)
    }
    #expect(written("MMM d", "en-US") == "Jan 3")
    #expect(written("d MMMM y", "fr-FR") == "3 janvier 2022")
    #expect(written("dd.MM.yy", "de-DE") == "03.01.22")
    #expect(written("HH:mm", "de-DE") == "12:00")
    #expect(written("h:mm a", "en-US") == "12:00\u{202F}PM")
  }
}
