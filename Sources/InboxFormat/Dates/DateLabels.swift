import Foundation

/// The date labels of one context: which bucket a message falls in, by
/// local calendar days, and its text in the context's locale.
///
/// Formatters are built once here, never per message. The bucket is chosen
/// from day numbers only; Foundation's relative formatting, which reads the
/// real clock, only supplies the locale's word for yesterday.
///
/// The context's time zone only decides offsets: every formatter works in
/// GMT on the local wall-clock time (the instant shifted by its offset),
/// which gives the same time, date and weekday, since no label shows a zone.
/// So a zone id that Foundation's date formatters cannot handle (the legacy
/// `ACT`, `SystemV/…`) never reaches them.
final class DateLabels: Sendable {
  private let days: LocalDays
  /// The zone's offsets from two years before now until a year after, where
  /// nearly every message falls.
  private let recentOffsets: OffsetTable
  private let nowSeconds: Int64
  private let today: Int64
  /// The first instant of tomorrow: when every label of the last week's rows goes stale.
  private let tomorrowStartDate: Date
  private let timeFormatter: DateFormatter
  private let shortDateFormatter: DateFormatter
  private let yesterday: String
  /// Weekday labels for 0 to 6 days ago, indexed by the number of days
  /// (only 2 to 6 are used).
  private let weekdays: [String]

  init(context: FormattingContext) {
    var calendar = context.calendar
    calendar.timeZone = wallClockZone
    let locale = Self.formattable(context.locale)
    let timeLocale = context.hourCycle.map { $0.applied(to: locale) } ?? locale

    days = LocalDays(timeZone: context.timeZone)
    nowSeconds = context.now.wholeSecondsSince1970
    recentOffsets = OffsetTable(
      days, from: nowSeconds - 731 * secondsPerDay, until: nowSeconds + 366 * secondsPerDay)
    today = days.day(of: nowSeconds)
    tomorrowStartDate = Date(
      timeIntervalSince1970: Double(days.firstInstant(from: nowSeconds, ofDayAtLeast: today + 1)))

    timeFormatter = Self.formatter(locale: timeLocale, calendar: calendar, date: .none, time: .short)
    timeFormatter.honourExplicitHourCycle()
    shortDateFormatter = Self.formatter(locale: locale, calendar: calendar, date: .short, time: .none)

    yesterday = Self.yesterdayWord(locale: locale, calendar: calendar)

    let weekdayStyle = Date.FormatStyle(
      locale: locale, calendar: calendar, timeZone: wallClockZone,
      capitalizationContext: .beginningOfSentence
    ).weekday(.wide)
    var weekdays = Array(repeating: "", count: 7)
    for daysAgo in 2...6 {
      let noon = (today - Int64(daysAgo)) * secondsPerDay + secondsPerDay / 2
      weekdays[daysAgo] = weekdayStyle.format(Date(timeIntervalSince1970: Double(noon)))
    }
    self.weekdays = weekdays
  }

  /// A formatter of CLDR's date and time styles; `calendar` carries the time zone.
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

  /// The label of a message updated at `date`, and the first instant it is stale.
  ///
  /// `memo` remembers offsets and formatted labels, so ICU formats each
  /// distinct minute or day once, not once per message. A time label depends
  /// only on the local minute and a short date only on the local day, whatever
  /// the offset, so these keys are exact.
  func label(for date: Date, memo: inout LabelMemo) -> (text: String, validUntil: Date?) {
    let seconds = date.wholeSecondsSince1970
    let localSeconds = seconds + (recentOffsets.offset(at: seconds) ?? memo.offset(at: seconds, in: days))
    let messageDay = floorDivide(localSeconds, by: secondsPerDay)
    let daysAgo = today - messageDay
    switch daysAgo {
    case 0:
      let minute = floorDivide(localSeconds, by: 60)
      if let text = memo.recentTime(at: minute) { return (text, tomorrowStartDate) }
      return (memo.time(at: minute) { timeFormatter.string(from: wallClock(minute * 60)) }, tomorrowStartDate)
    case 1:
      return (yesterday, tomorrowStartDate)
    case 2...6:
      return (weekdays[Int(daysAgo)], tomorrowStartDate)
    default:
      let text: String
      if let known = memo.recentShortDate(on: messageDay) {
        text = known
      } else {
        text = memo.shortDate(on: messageDay) { shortDateFormatter.string(from: wallClock(messageDay * secondsPerDay + secondsPerDay / 2)) }
      }
      guard daysAgo < 0 else { return (text, nil) }
      // A later day than today: a date until that day comes, then its time.
      return (text, instant(days.firstInstant(from: nowSeconds, ofDayAtLeast: messageDay)))
    }
  }

  private func instant(_ seconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(seconds))
  }

  /// The local wall-clock time `localSeconds` as the GMT instant that reads the same.
  private func wallClock(_ localSeconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(localSeconds))
  }

  /// The locale's word for the day before today (CLDR's relative day -1),
  /// capitalized as at the beginning of a sentence: `Yesterday`, `Hier`, `昨日`.
  private static func yesterdayWord(locale: Locale, calendar: Calendar) -> String {
    // The anchored style formats its anchor relative to the date it is given;
    // both are fixed here, one day apart, so no clock is involved.
    let anchor = Date(timeIntervalSinceReferenceDate: 43_200)  // 2001-01-01 12:00 UTC
    var style = Date.AnchoredRelativeFormatStyle(
      anchor: anchor, presentation: .named, unitsStyle: .wide,
      locale: locale, calendar: calendar, capitalizationContext: .beginningOfSentence)
    style.allowedFields = [.day]
    return style.format(calendar.date(byAdding: .day, value: 1, to: anchor) ?? anchor.addingTimeInterval(86_400))
  }
}

extension LabelMemo {
  /// The UTC offset at `seconds`, asking the time zone once per UTC day
  /// (twice on a day when the offset changes).
  mutating func offset(at seconds: Int64, in days: LocalDays) -> Int64 {
    let utcDay = floorDivide(seconds, by: secondsPerDay)
    let span = offsets(on: utcDay) {
      let dayStart = utcDay * secondsPerDay
      return .init(offset: days.offset(at: dayStart), changesAt: days.nextTransition(after: dayStart) ?? .max)
    }
    return seconds < span.changesAt ? span.offset : days.offset(at: seconds)
  }

}

/// The zone of every formatter: GMT, on wall-clock times (see ``DateLabels``).
private let wallClockZone = TimeZone(secondsFromGMT: 0)!
