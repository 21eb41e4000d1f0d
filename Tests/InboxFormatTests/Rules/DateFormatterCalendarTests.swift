import Foundation
import Testing

@testable import InboxFormat

/// A date formatter is given its calendar only when the calendar is not
/// its locale's own (``isOwnCalendar(_:of:)``): for every locale ICU has,
/// the formatters made so write what formatters always given it write.
@Suite struct DateFormatterCalendarTests {
  static let instants = [
    "2022-01-31T09:45:00Z", "1989-01-07T23:59:00Z", "1989-01-08T00:00:00Z", "2019-05-01T00:00:00Z",
    "1970-01-01T00:00:00Z", "2030-12-31T23:59:00Z",
  ].map(Pinned.instant)

  static let styles: [(date: DateFormatter.Style, time: DateFormatter.Style)] = [
    (.none, .short), (.short, .none), (.long, .none),
  ]

  /// The formatter given its calendar whatever it is.
  static func givenTheCalendar(
    locale: Locale, calendar: Calendar, date: DateFormatter.Style, time: DateFormatter.Style
  ) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: Locale.identifier(.icu, from: locale.identifier))
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.dateStyle = date
    formatter.timeStyle = time
    return formatter
  }

  static func expectSameTexts(locale: Locale, calendar: Calendar) {
    var calendar = calendar
    calendar.timeZone = wallClockZone
    let locale = formattableLocale(locale)
    for (date, time) in styles {
      let made = DateWords.formatter(locale: locale, calendar: calendar, date: date, time: time)
      let given = givenTheCalendar(locale: locale, calendar: calendar, date: date, time: time)
      for instant in instants {
        #expect(
          made.string(from: instant) == given.string(from: instant),
          "\(locale.identifier) \(calendar.identifier) \(date) \(time) \(instant)")
      }
    }
  }

  /// Every locale ICU has data for, in its own calendar (as a context
  /// takes it from its locale by default).
  @Test func everyLocaleInItsOwnCalendar() {
    var own = 0
    for identifier in Locale.availableIdentifiers {
      let locale = Locale(identifier: Locale.identifier(.bcp47, from: identifier))
      Self.expectSameTexts(locale: locale, calendar: locale.calendar)
      let formatLocale = Locale(identifier: Locale.identifier(.icu, from: formattableLocale(locale).identifier))
      if isOwnCalendar(locale.calendar, of: formatLocale) { own += 1 }
    }
    // The formatters compared are mostly made without their calendar.
    #expect(own > Locale.availableIdentifiers.count * 9 / 10)
  }

  /// Calendars that are not the locale's: another kind, another first
  /// weekday, a calendar asked for in the tag.
  @Test func otherCalendars() {
    var mondayFirst = Calendar(identifier: .gregorian)
    mondayFirst.firstWeekday = 2
    let cases: [(String, Calendar)] = [
      ("en-US", Calendar(identifier: .japanese)), ("ja-JP", Calendar(identifier: .japanese)),
      ("th-TH", Calendar(identifier: .gregorian)), ("fa-IR", Calendar(identifier: .gregorian)),
      ("en-US", mondayFirst), ("ar-SA", Calendar(identifier: .islamicUmmAlQura)),
      ("ja-JP-u-ca-japanese", Locale(identifier: "ja-JP-u-ca-japanese").calendar),
    ]
    for (identifier, calendar) in cases {
      Self.expectSameTexts(locale: Locale(identifier: identifier), calendar: calendar)
    }
  }
}
