import Foundation

// The date label: a time today, the word for yesterday, a weekday this
// week, a short date before that; and the instant it stops being true.

/// A date label and the first instant at which it is no longer the right
/// one, or nil when it never changes.
struct DateLabel: Equatable, Sendable {
  var text: String
  var validUntil: Date?
}

/// Which kind of label a message's date gets, by the number of calendar
/// days from its local date back to now's (``LocalDays``).
enum DateBucket: Equatable, Sendable {
  /// Today: the time.
  case time
  /// One day back: the word for yesterday.
  case yesterday
  /// Two to six days back: the weekday. (Seven days back is today's weekday
  /// again, so it gets a date.)
  case weekday
  /// Seven days or more back: the short date, which never changes.
  case date
  /// A later day than today: the short date, until that day comes.
  case laterDay

  init(daysAgo: Int64) {
    switch daysAgo {
    case 0: self = .time
    case 1: self = .yesterday
    case 2...6: self = .weekday
    case 7...: self = .date
    default: self = .laterDay
    }
  }
}

/// The date label of a message updated at `date`, seen at `now`: the rule of
/// the README, plainly, in the zone of `days` and the words of `words`.
///
/// A label of the last week stays true until the next local midnight (or
/// the first instant after the gap, when daylight saving time skips
/// midnight); a later day's date until that day begins; an older date
/// forever.
func dateLabel(for date: Date, now: Date, days: LocalDays, words: DateWords) -> DateLabel {
  let seconds = date.wholeSecondsSince1970
  let nowSeconds = now.wholeSecondsSince1970
  let localSeconds = seconds + days.offset(at: seconds)
  let day = floorDivide(localSeconds, by: secondsPerDay)
  let today = days.day(of: nowSeconds)
  let tomorrow = days.firstInstant(from: nowSeconds, ofDayAtLeast: today + 1)
  switch DateBucket(daysAgo: today - day) {
  case .time: return DateLabel(text: words.time(atLocalMinute: floorDivide(localSeconds, by: 60)), validUntil: instant(tomorrow))
  case .yesterday: return DateLabel(text: words.yesterday, validUntil: instant(tomorrow))
  case .weekday: return DateLabel(text: words.weekday(onLocalDay: day), validUntil: instant(tomorrow))
  case .date: return DateLabel(text: words.shortDate(onLocalDay: day), validUntil: nil)
  case .laterDay:
    return DateLabel(
      text: words.shortDate(onLocalDay: day), validUntil: instant(days.firstInstant(from: nowSeconds, ofDayAtLeast: day)))
  }
}

/// The instant `seconds` after 1970-01-01T00:00:00Z.
func instant(_ seconds: Int64) -> Date {
  Date(timeIntervalSince1970: Double(seconds))
}

/// The words and formats of date labels in one locale, calendar and hour
/// cycle, from ICU's CLDR data, made once: the short time, the short date,
/// the weekday names and the word for yesterday.
///
/// Every formatter works in GMT on wall-clock time (a local minute or day
/// written as the GMT instant that reads the same), which gives the same
/// time, date and weekday, since no label shows a zone: the viewer's zone
/// only decides offsets (``LocalDays``), and a zone id that Foundation's
/// formatters cannot handle (the legacy `ACT`, `SystemV/…`) never reaches
/// them. Foundation's relative formatting, which reads the real clock, only
/// supplies the word for yesterday, between two fixed instants.
final class DateWords: Sendable {
  /// The locale's CLDR short time, honouring the hour cycle: `9:45 AM`, `09:45`.
  private let timeFormatter: DateFormatter
  /// The locale's CLDR short date, in its calendar: `1/3/22`, `03/01/2022`.
  private let shortDateFormatter: DateFormatter
  /// The full weekday names, capitalized as at the start of a sentence,
  /// by local day number modulo 7 (day 0, 1970-01-01, was a Thursday).
  private let weekdays: [String]
  /// The word for the day before today, capitalized as at the start of a
  /// sentence: `Yesterday`, `Hier`, `昨日`.
  let yesterday: String

  init(locale: Locale, calendar: Calendar, hourCycle: HourCycle?) {
    var calendar = calendar
    calendar.timeZone = wallClockZone
    let locale = Self.formattable(locale)
    let timeLocale = hourCycle.map { $0.applied(to: locale) } ?? locale

    timeFormatter = Self.formatter(locale: timeLocale, calendar: calendar, date: .none, time: .short)
    timeFormatter.honourExplicitHourCycle()
    shortDateFormatter = Self.formatter(locale: locale, calendar: calendar, date: .short, time: .none)
    yesterday = Self.yesterdayWord(locale: locale, calendar: calendar)
    let weekdayStyle = Date.FormatStyle(
      locale: locale, calendar: calendar, timeZone: wallClockZone, capitalizationContext: .beginningOfSentence
    ).weekday(.wide)
    weekdays = (0..<7).map { day in weekdayStyle.format(Self.noon(ofLocalDay: Int64(day))) }
  }

  /// The time label of a local minute (minutes since 1970-01-01T00:00 local).
  func time(atLocalMinute minute: Int64) -> String {
    timeFormatter.string(from: instant(minute * 60))
  }

  /// The short date of a local day (days since 1970-01-01 local).
  func shortDate(onLocalDay day: Int64) -> String {
    shortDateFormatter.string(from: Self.noon(ofLocalDay: day))
  }

  /// The full weekday name of a local day.
  func weekday(onLocalDay day: Int64) -> String {
    weekdays[Int(day - floorDivide(day, by: 7) * 7)]
  }

  /// Noon of a local day, as the GMT instant that reads the same: far from
  /// the day's edges in every calendar.
  private static func noon(ofLocalDay day: Int64) -> Date {
    instant(day * secondsPerDay + secondsPerDay / 2)
  }

  /// A formatter of CLDR's date and time styles; `calendar` carries the zone.
  private static func formatter(
    locale: Locale, calendar: Calendar, date: DateFormatter.Style, time: DateFormatter.Style
  ) -> DateFormatter {
    let formatter = DateFormatter()
    // Foundation's date formatters trap on some BCP 47 names with a
    // numbering system (`th-TH-u-nu-thai`) that their ICU form
    // (`th_TH@numbers=thai`) formats well.
    formatter.locale = Locale(identifier: Locale.identifier(.icu, from: locale.identifier))
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.dateStyle = date
    formatter.timeStyle = time
    return formatter
  }

  /// The locale under its canonical BCP 47 name, less a numbering system
  /// ICU does not have: Foundation's relative formatting traps on some
  /// POSIX-style names (`de_DE.ISO-8859-15@euro`) that its other formatters
  /// accept, and every formatter traps on an unknown numbering system
  /// (`-u-nu-xxx`). Presentation never fails.
  private static func formattable(_ locale: Locale) -> Locale {
    let canonical = Locale(identifier: Locale.identifier(.bcp47, from: locale.identifier))
    guard !Locale.NumberingSystem.availableNumberingSystems.contains(canonical.numberingSystem) else { return canonical }
    var components = Locale.Components(locale: canonical)
    components.numberingSystem = nil
    return Locale(components: components)
  }

  /// CLDR's relative day −1, between two fixed instants a day apart, so no clock is involved.
  private static func yesterdayWord(locale: Locale, calendar: Calendar) -> String {
    let anchor = Date(timeIntervalSinceReferenceDate: 43_200)  // 2001-01-01 12:00 UTC
    var style = Date.AnchoredRelativeFormatStyle(
      anchor: anchor, presentation: .named, unitsStyle: .wide,
      locale: locale, calendar: calendar, capitalizationContext: .beginningOfSentence)
    style.allowedFields = [.day]
    return style.format(anchor.addingTimeInterval(86_400))
  }
}

/// The zone of every formatter: GMT, on wall-clock times (see ``DateWords``).
private let wallClockZone = TimeZone(secondsFromGMT: 0)!
