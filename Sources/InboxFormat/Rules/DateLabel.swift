import Foundation
import InboxFormatSupport

// The date label: a time today, the word for yesterday, a weekday this
// week, a short date before that; and the instant it stops being true.

/// A date label and the first instant at which it is no longer the right
/// one, or nil when it never changes.
struct DateLabel: Hashable, Sendable {
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
  /// The days of ``weekdayDays`` back: the weekday.
  case weekday
  /// More days back: the short date, which never changes.
  case date
  /// A later day than today: the short date, until that day comes.
  case laterDay

  /// The days back that show the weekday: two to six. (Seven days back is
  /// today's weekday again, so it gets a date.)
  static let weekdayDays: ClosedRange<Int64> = 2...6

  init(daysAgo: Int64) {
    switch daysAgo {
    case 0: self = .time
    case 1: self = .yesterday
    case Self.weekdayDays: self = .weekday
    case (Self.weekdayDays.upperBound + 1)...: self = .date
    default: self = .laterDay
    }
  }
}

/// How a date label is worded: the public ``DateStyle``s, and the spoken
/// form of the `spokenDate` field.
enum LabelStyle: Hashable, Sendable {
  case standard, compact, relative
  /// What a screen reader says: the long date where the others show a short one.
  case spoken
}

/// What a date label shows: which of the locale's words, for which local
/// minute or day (minutes and days since 1970-01-01 on the local clock).
enum DateLabelText: Hashable, Sendable {
  /// The short time of a local minute: `9:45 AM`, `09:45`.
  case time(localMinute: Int64)
  /// The word for yesterday.
  case yesterday
  /// The full weekday name of a local day: `Tuesday`.
  case weekday(localDay: Int64)
  /// The abbreviated weekday name of a local day: `Tue`.
  case abbreviatedWeekday(localDay: Int64)
  /// The short date of a local day: `1/3/22`.
  case shortDate(localDay: Int64)
  /// The month and day of a local day, without the year: `Jan 3`.
  case monthDay(localDay: Int64)
  /// The long date of a local day: `January 3, 2022`.
  case longDate(localDay: Int64)
  /// The word for now.
  case now
  /// A count of minutes ago, 1 to 59: `5 min. ago`.
  case minutesAgo(Int64)
}

/// The date label of a message updated at `date`, seen at `now`: the rule of
/// the README, plainly, in the zone of `days`, the words of `words` and
/// the style `style`.
func dateLabel(for date: Date, now: Date, days: LocalDays, words: DateWords, style: LabelStyle = .standard) -> DateLabel
{
  let seconds = date.wholeSecondsSince1970
  let nowSeconds = now.wholeSecondsSince1970
  let (text, validUntil) = dateLabel(
    seconds: seconds, localSeconds: seconds + days.offset(at: seconds), nowSeconds: nowSeconds,
    today: days.day(of: nowSeconds), style: style, calendar: words
  ) { day in instant(days.firstInstant(from: nowSeconds, ofDayAtLeast: day)) }
  return DateLabel(text: words.text(of: text), validUntil: validUntil)
}

/// The date rule once the instants are placed in the zone: what the label
/// of a message at `seconds` (`localSeconds` on the local clock), seen at
/// `nowSeconds` on local day `today`, shows, and until when. `dayStart`
/// gives the first instant at or after now of a local day
/// (``LocalDays/firstInstant(from:ofDayAtLeast:)``); `calendar` the years of
/// the locale's calendar.
///
/// A label of the last week stays true until the next local midnight (or
/// the first instant after the gap, when daylight saving time skips
/// midnight); a later day's date until that day begins; an older date
/// forever, except a compact month and day, which holds until now's year
/// ends; a relative label until its count of minutes changes.
@inline(__always)
func dateLabel(
  seconds: Int64, localSeconds: Int64, nowSeconds: Int64, today: Int64, style: LabelStyle, calendar: DateWords,
  dayStart: (Int64) -> Date
) -> (text: DateLabelText, validUntil: Date?) {
  if style == .relative {
    let ago = nowSeconds - seconds
    // From a minute ahead to 59 s back: now, until the first minute is full.
    if ago >= -60 && ago < 60 { return (.now, instant(seconds + 60)) }
    // Whole minutes back, until the next one is full.
    if ago >= 60 && ago < 3_600 {
      let minutes = ago / 60
      return (.minutesAgo(minutes), instant(seconds + 60 * (minutes + 1)))
    }
  }
  let day = floorDivide(localSeconds, by: secondsPerDay)
  var label: (text: DateLabelText, validUntil: Date?)
  switch DateBucket(daysAgo: today - day) {
  case .time: label = (.time(localMinute: floorDivide(localSeconds, by: 60)), dayStart(today + 1))
  case .yesterday: label = (.yesterday, dayStart(today + 1))
  case .weekday:
    label = (style == .compact ? .abbreviatedWeekday(localDay: day) : .weekday(localDay: day), dayStart(today + 1))
  case .date:
    switch style {
    case .spoken: label = (.longDate(localDay: day), nil)
    case .compact:
      // Within now's year in the locale's calendar: the month and day, until the year ends.
      let year = calendar.yearDays(containing: today)
      label =
        day >= year.lowerBound
        ? (.monthDay(localDay: day), dayStart(year.upperBound)) : (.shortDate(localDay: day), nil)
    case .standard, .relative: label = (.shortDate(localDay: day), nil)
    }
  case .laterDay: label = (style == .spoken ? .longDate(localDay: day) : .shortDate(localDay: day), dayStart(day))
  }
  // More than a minute ahead: this label until the message is a minute away, then now.
  if style == .relative, nowSeconds - seconds < -60 {
    label.validUntil = earliest(label.validUntil, instant(seconds - 60))
  }
  return label
}

/// The earlier of two instants, either of which may be missing.
func earliest(_ first: Date?, _ second: Date?) -> Date? {
  guard let first else { return second }
  guard let second else { return first }
  return min(first, second)
}

/// The instant `seconds` after 1970-01-01T00:00:00Z.
func instant(_ seconds: Int64) -> Date {
  Date(timeIntervalSince1970: Double(seconds))
}

/// The words and formats of date labels in one locale, calendar and hour
/// cycle, from ICU's CLDR data: the short time, the short date, the
/// weekday names, the word for yesterday and the words of the other
/// styles. Each is made the first time a label needs it, then kept
/// (``OnFirstUse``), so that labels cost only the words they show.
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
  private let timeFormatter: OnFirstUse<LabelFormat>
  /// The locale's CLDR short date, in its calendar: `1/3/22`, `03/01/2022`.
  private let shortDateFormatter: OnFirstUse<LabelFormat>
  /// The full weekday names, capitalized as at the start of a sentence,
  /// by local day number modulo 7 (day 0, 1970-01-01, was a Thursday).
  private let weekdays: [OnFirstUse<String>]
  /// The word for the day before today, capitalized as at the start of a
  /// sentence: `Yesterday`, `Hier`, `昨日`.
  private let yesterdayWord: OnFirstUse<String>
  /// The words of the other styles.
  private let compact: OnFirstUse<CompactDateWords>
  private let relative: OnFirstUse<RelativeDateWords>
  private let longDate: OnFirstUse<LongDateWords>
  /// The calendar (in GMT) the words are made in.
  private let calendar: Calendar

  /// The words of `locale`, in `calendar`, their times in `hourCycle` when given.
  init(locale: Locale, calendar: Calendar, hourCycle: HourCycle?) {
    var calendar = calendar
    calendar.timeZone = wallClockZone
    // Made once, for whichever words are made first.
    let formattable = OnFirstUse { formattableLocale(locale) }
    timeFormatter = OnFirstUse { [calendar] in
      let locale = formattable.value
      let timeLocale = hourCycle.map { $0.applied(to: locale) } ?? locale
      let formatter = Self.formatter(locale: timeLocale, calendar: calendar, date: .none, time: .short)
      formatter.honourExplicitHourCycle()
      return LabelFormat(formatter, locale: timeLocale, calendar: calendar)
    }
    shortDateFormatter = OnFirstUse { [calendar] in
      let locale = formattable.value
      let formatter = Self.formatter(locale: locale, calendar: calendar, date: .short, time: .none)
      return LabelFormat(formatter, locale: locale, calendar: calendar)
    }
    yesterdayWord = OnFirstUse { [calendar] in Self.yesterdayWord(locale: formattable.value, calendar: calendar) }
    weekdays = (0..<7).map { day in
      OnFirstUse { [calendar] in
        weekdayName(onLocalDay: Int64(day), .wide, locale: formattable.value, calendar: calendar)
      }
    }
    compact = OnFirstUse { [calendar] in CompactDateWords(locale: formattable.value, calendar: calendar) }
    relative = OnFirstUse { [calendar] in RelativeDateWords(locale: formattable.value, calendar: calendar) }
    longDate = OnFirstUse { [calendar] in LongDateWords(locale: formattable.value, calendar: calendar) }
    self.calendar = calendar
  }

  /// The words of what a label shows.
  func text(of shown: DateLabelText) -> String {
    switch shown {
    case .time(let minute): time(atLocalMinute: minute)
    case .yesterday: yesterday
    case .weekday(let day): weekday(onLocalDay: day)
    case .abbreviatedWeekday(let day): compact.value.abbreviatedWeekday(onLocalDay: day)
    case .shortDate(let day): shortDate(onLocalDay: day)
    case .monthDay(let day): compact.value.monthDay(onLocalDay: day)
    case .longDate(let day): longDate.value.longDate(onLocalDay: day)
    case .now: relative.value.now
    case .minutesAgo(let count): relative.value.minutesAgo(count)
    }
  }

  /// The word for the day before today, capitalized as at the start of a
  /// sentence: `Yesterday`, `Hier`, `昨日`.
  var yesterday: String {
    yesterdayWord.value
  }

  /// How many of the formatters, weekday names, words and styles' words
  /// were made: what the labels so far needed.
  var madeCount: Int {
    let made =
      [timeFormatter.isMade, shortDateFormatter.isMade, yesterdayWord.isMade]
      + [compact.isMade, relative.isMade, longDate.isMade] + weekdays.map(\.isMade)
    return made.filter { $0 }.count
  }

  /// The local days of the calendar year (and era) that holds `day`: its first
  /// day, and the first day of the next year.
  func yearDays(containing day: Int64) -> Range<Int64> {
    guard let year = calendar.dateInterval(of: .year, for: noon(ofLocalDay: day)) else { return day..<day + 1 }
    let first = floorDivide(Int64(year.start.timeIntervalSince1970.rounded()), by: secondsPerDay)
    let next = floorDivide(Int64(year.end.timeIntervalSince1970.rounded()), by: secondsPerDay)
    return first..<max(next, day + 1)
  }

  /// The time label of a local minute (minutes since 1970-01-01T00:00 local).
  func time(atLocalMinute minute: Int64) -> String {
    timeFormatter.value.string(from: instant(minute * 60))
  }

  /// The short date of a local day (days since 1970-01-01 local).
  func shortDate(onLocalDay day: Int64) -> String {
    shortDateFormatter.value.string(from: noon(ofLocalDay: day))
  }

  /// The full weekday name of a local day.
  func weekday(onLocalDay day: Int64) -> String {
    weekdays[Int(day - floorDivide(day, by: 7) * 7)].value
  }

  /// A formatter of CLDR's date and time styles; `calendar` carries the zone.
  static func formatter(
    locale: Locale, calendar: Calendar, date: DateFormatter.Style, time: DateFormatter.Style
  ) -> DateFormatter {
    let formatter = DateFormatter()
    // Foundation's date formatters trap on some BCP 47 names with a
    // numbering system (`th-TH-u-nu-thai`) that their ICU form
    // (`th_TH@numbers=thai`) formats well.
    let formatLocale = Locale(identifier: Locale.identifier(.icu, from: locale.identifier))
    formatter.locale = formatLocale
    // Setting a calendar remakes ICU's formatter twice (for its name, then
    // for its weeks), two thirds of what a formatter costs to make; the
    // locale's own calendar is the one ICU makes it with unasked.
    if !isOwnCalendar(calendar, of: formatLocale) { formatter.calendar = calendar }
    formatter.timeZone = calendar.timeZone
    formatter.dateStyle = date
    formatter.timeStyle = time
    return formatter
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

/// Whether a date formatter of `locale` formats in `calendar` without being
/// given it: the locale's own kind of calendar, with its first weekday and
/// its minimum days in a first week. A test holds the formatters' texts
/// equal both ways for every locale ICU has.
func isOwnCalendar(_ calendar: Calendar, of locale: Locale) -> Bool {
  let own = locale.calendar
  return own.identifier == calendar.identifier && own.firstWeekday == calendar.firstWeekday
    && own.minimumDaysInFirstWeek == calendar.minimumDaysInFirstWeek
}

/// The weekday of a local day, its CLDR stand-alone name in `width`,
/// capitalized as at the start of a sentence (`Tuesday`, `Mardi`, `Mar.`):
/// what Foundation's format style writes for a lone weekday field in ICU's
/// beginning-of-sentence context. ICU capitalizes there by titlecasing the
/// name's first letter, and so does this, with the field's pattern written
/// out where the style would run ICU's pattern generator to find it. A test
/// holds the two equal for every locale ICU has.
func weekdayName(
  onLocalDay day: Int64, _ width: Date.FormatStyle.Symbol.StandaloneWeekday, locale: Locale, calendar: Calendar
) -> String {
  let name = Date.VerbatimFormatStyle(
    format: "\(standaloneWeekday: width)", locale: locale, timeZone: wallClockZone, calendar: calendar
  ).format(noon(ofLocalDay: day))
  guard let first = name.unicodeScalars.first else { return name }
  return first.properties.titlecaseMapping + String(name.unicodeScalars.dropFirst())
}

/// The zone of every formatter: GMT, on wall-clock times (see ``DateWords``).
let wallClockZone = TimeZone(secondsFromGMT: 0)!

/// Noon of a local day, as the GMT instant that reads the same: far from
/// the day's edges in every calendar.
func noon(ofLocalDay day: Int64) -> Date {
  instant(day * secondsPerDay + secondsPerDay / 2)
}

/// The locale under its canonical BCP 47 name, less what ICU refuses:
/// Foundation's relative formatting traps on some POSIX-style names
/// (`de_DE.ISO-8859-15@euro`) that its other formatters accept, its date
/// formatters trap on the keywords of a tag ICU cannot read (a malformed
/// extension: `th-t-nu0nu-u-nu-thai`), and every formatter traps on an
/// unknown numbering system (`-u-nu-xxx`). Presentation never fails.
func formattableLocale(_ locale: Locale) -> Locale {
  var canonical = Locale(identifier: Locale.identifier(.bcp47, from: locale.identifier))
  if !canonical.isReadByICU {
    // What `Locale.Components` reads of it (language, script, region and
    // keywords), without the extension ICU refuses; or the language alone.
    let rebuilt = Locale(components: Locale.Components(locale: canonical))
    canonical = Locale(identifier: Locale.identifier(.bcp47, from: rebuilt.identifier))
    if !canonical.isReadByICU {
      canonical = Locale(languageCode: canonical.language.languageCode)
    }
  }
  guard !Locale.NumberingSystem.availableNumberingSystems.contains(canonical.numberingSystem) else { return canonical }
  var components = Locale.Components(locale: canonical)
  components.numberingSystem = nil
  return Locale(components: components)
}

/// The words of the compact style: abbreviated weekdays, the month and day
/// without the year, and the years of the locale's calendar.
final class CompactDateWords: Sendable {
  /// The abbreviated weekday names (`Tue`, `Mar.`), capitalized as at the
  /// start of a sentence, by local day number modulo 7.
  private let weekdays: [String]
  /// CLDR's `MMMd` skeleton in the locale: `Jan 3`, `3 janv.`, `1月3日`.
  private let monthDay: LabelFormat

  init(locale: Locale, calendar: Calendar) {
    weekdays = (0..<7).map { day in
      weekdayName(onLocalDay: Int64(day), .abbreviated, locale: locale, calendar: calendar)
    }
    let monthDayFormatter = DateFormatter()
    monthDayFormatter.locale = Locale(identifier: Locale.identifier(.icu, from: locale.identifier))
    monthDayFormatter.calendar = calendar
    monthDayFormatter.timeZone = wallClockZone
    monthDayFormatter.setLocalizedDateFormatFromTemplate("MMMd")
    monthDay = LabelFormat(monthDayFormatter, locale: locale, calendar: calendar)
  }

  /// The abbreviated weekday of a local day.
  func abbreviatedWeekday(onLocalDay day: Int64) -> String {
    weekdays[Int(day - floorDivide(day, by: 7) * 7)]
  }

  /// The month and day of a local day.
  func monthDay(onLocalDay day: Int64) -> String {
    monthDay.string(from: noon(ofLocalDay: day))
  }

}

/// The words of the relative style: CLDR's relative `now` and the short
/// form of minutes ago.
final class RelativeDateWords: Sendable {
  /// The word for now, capitalized as at the start of a sentence: `Now`, `Maintenant`.
  let now: String
  /// `1 min. ago` … `59 min. ago`, by minutes − 1.
  private let minutes: [String]

  init(locale: Locale, calendar: Calendar) {
    // Between fixed instants, so no clock is involved.
    let anchor = Date(timeIntervalSinceReferenceDate: 43_200)  // 2001-01-01 12:00 UTC
    var nowStyle = Date.AnchoredRelativeFormatStyle(
      anchor: anchor, presentation: .named, unitsStyle: .wide, locale: locale, calendar: calendar,
      capitalizationContext: .beginningOfSentence)
    nowStyle.allowedFields = [.second]
    now = nowStyle.format(anchor)
    var minuteStyle = Date.AnchoredRelativeFormatStyle(
      anchor: anchor, presentation: .numeric, unitsStyle: .abbreviated, locale: locale, calendar: calendar)
    minuteStyle.allowedFields = [.minute]
    // Foundation's anchored style words the anchor as seen from the date
    // formatted: the anchor is `count` minutes ago when the date is that much later.
    minutes = (1...59).map { minuteStyle.format(anchor.addingTimeInterval(Double(60 * $0))) }
  }

  /// The short form of `count` (1 to 59) minutes ago: `5 min. ago`, `il y a 5 min`.
  func minutesAgo(_ count: Int64) -> String {
    minutes[Int(count) - 1]
  }
}

/// The long date of spoken dates: CLDR's `dateStyle: long`, in the locale's
/// calendar (`January 3, 2022`, `3 janvier 2022`).
final class LongDateWords: Sendable {
  private let formatter: LabelFormat

  init(locale: Locale, calendar: Calendar) {
    let formatter = DateWords.formatter(locale: locale, calendar: calendar, date: .long, time: .none)
    self.formatter = LabelFormat(formatter, locale: locale, calendar: calendar)
  }

  /// The long date of a local day.
  func longDate(onLocalDay day: Int64) -> String {
    formatter.string(from: noon(ofLocalDay: day))
  }
}
