import Foundation
import GoldenCases
import InboxFormatSupport
import Testing

@testable import InboxFormat

@Suite struct DateLabelTests {
  func label(
    _ date: String, now: String = "2022-01-31T12:00:00Z", locale: String = "en-US",
    timeZone: String = "Europe/Paris", hourCycle: HourCycle? = nil
  ) -> DateLabel {
    let context = Pinned.context(
      now: Pinned.instant(now), locale: locale, timeZone: timeZone, hourCycle: hourCycle)
    return PlainRules(context: context).dateLabel(for: Pinned.instant(date))
  }

  /// The post's screen, as its golden file records it.
  @Test func theMessagesScreen() {
    let dates = ["2022-01-31T08:45:33Z", "2022-01-30T17:54:37Z", "2022-01-25T17:12:33Z", "2022-01-03T12:54:23Z"]
    #expect(dates.map { label($0).text } == GoldenCase.messagesScreen.expected("date"))
  }

  /// The instant `days` calendar days before the pinned now (2022-01-31
  /// 13:00 in Paris), at 11:00 in Paris.
  static func daysBack(_ days: Int64) -> String {
    Pinned.instant("2022-01-31T10:00:00Z").addingTimeInterval(-86_400 * Double(days))
      .formatted(.iso8601)
  }

  /// Its weekday's name (`EEEE`) or abbreviation (`EEE`) in `timeZone`, as
  /// Foundation's own formatter says it, capitalized as a label that starts
  /// a line: French "mardi" is "Mardi", "mar." is "Mar.".
  static func weekday(
    _ date: String, locale: String = "en-US", timeZone: String = "Europe/Paris", format: String = "EEEE"
  ) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: locale)
    formatter.timeZone = TimeZone(identifier: timeZone)
    formatter.dateFormat = format
    let name = formatter.string(from: Pinned.instant(date))
    return name.prefix(1).uppercased() + name.dropFirst()
  }

  /// The days ``DateBucket/weekdayDays`` back show the weekday; the day
  /// before them, yesterday, and the day after them, a date.
  @Test func theWeekdayBucketsEnds() {
    let (first, last) = (DateBucket.weekdayDays.lowerBound, DateBucket.weekdayDays.upperBound)
    #expect(label(Self.daysBack(first)).text == Self.weekday(Self.daysBack(first)))
    #expect(label(Self.daysBack(last)).text == Self.weekday(Self.daysBack(last)))
    #expect(label(Self.daysBack(first - 1)).text == "Yesterday")
    #expect(label(Self.daysBack(last + 1)).text.contains("/"), "a short date")
  }

  /// Minute and day -1 (the last of 1969), whose keys are all ones as
  /// unsigned numbers, have labels like any other.
  @Test func theLastMinuteOf1969HasALabel() {
    let mapper = MessageMapper(
      context: Pinned.context(
        now: Pinned.instant("1969-12-31T23:59:30Z"), locale: "en-US", timeZone: "UTC"))
    let message = MessageAPIModel(id: .integer(1), updateDate: Pinned.instant("1969-12-31T23:59:10Z"))
    #expect(mapper.map(message).date == "11:59\u{202F}PM")
    let later = MessageMapper(
      context: Pinned.context(
        now: Pinned.instant("2022-01-31T12:00:00Z"), locale: "en-US", timeZone: "UTC"))
    #expect(later.map(message).date == "12/31/69")
  }

  /// A week back is today's weekday: past the bucket, it gets a date.
  @Test func aWeekBackGetsADateNotTodaysWeekday() {
    #expect(label("2022-01-24T12:00:00Z").text == "1/24/22")
  }

  @Test func bucketsFollowTheViewersZone() {
    // 23:30 UTC on the 30th is 00:30 on the 31st in Paris, 18:30 on the 30th in New York.
    #expect(label("2022-01-30T23:30:00Z").text == "12:30\u{202F}AM")
    #expect(label("2022-01-30T23:30:00Z", timeZone: "America/New_York").text == "Yesterday")
    #expect(label("2022-01-30T23:30:00Z", timeZone: "Asia/Tokyo").text == "8:30\u{202F}AM")
  }

  @Test func calendarDaysNotTwentyFourHourSteps() {
    // 23 h 59 min apart but on consecutive days.
    #expect(label("2022-01-30T00:01:00+01:00", now: "2022-01-31T00:00:00+01:00").text == "Yesterday")
    // 23 h 58 min apart on the same day.
    #expect(label("2022-01-30T00:01:00+01:00", now: "2022-01-30T23:59:00+01:00").text == "12:01\u{202F}AM")
    // 1 min apart across midnight.
    #expect(label("2022-01-30T22:59:00Z", now: "2022-01-30T23:00:00Z").text == "Yesterday")
    // Spring forward: 2022-03-27 00:05 CET to 2022-03-28 00:10 CEST is 23 h 05 min.
    #expect(label("2022-03-27T00:05:00+01:00", now: "2022-03-28T00:10:00+02:00").text == "Yesterday")
    // Fall back: 2022-10-30 00:10 CEST to 23:30 CET the same day is 24 h 20 min.
    #expect(label("2022-10-30T00:10:00+02:00", now: "2022-10-30T23:30:00+01:00").text == "12:10\u{202F}AM")
  }

  @Test func aSkippedDayCountsAsADay() {
    // Apia: 29 December 2011 (a Thursday) to 31 December is two calendar days, one day of time.
    #expect(
      label("2011-12-29T12:00:00-10:00", now: "2011-12-31T12:00:00+14:00", timeZone: "Pacific/Apia").text == "Thursday")
  }

  @Test func futureDatesGetAShortDate() {
    #expect(label("2022-02-01T08:00:00Z").text == "2/1/22")
    #expect(label("2023-01-31T08:00:00Z").text == "1/31/23")
  }

  @Test func labelsExpireAtTheNextLocalMidnight() {
    let midnight = Pinned.instant("2022-01-31T23:00:00Z")  // 2022-02-01 00:00 in Paris
    #expect(label("2022-01-31T08:45:33Z").validUntil == midnight)
    #expect(label("2022-01-30T17:54:37Z").validUntil == midnight)
    #expect(label(Self.daysBack(DateBucket.weekdayDays.upperBound)).validUntil == midnight)
    #expect(label("2022-01-03T12:54:23Z").validUntil == nil)
    // A future date turns into a time when its day comes.
    #expect(label("2022-02-03T08:00:00Z").validUntil == Pinned.instant("2022-02-02T23:00:00Z"))
  }

  @Test func expiryWhenMidnightDoesNotExist() {
    // São Paulo 2018-11-04 began at 01:00 (-02:00).
    let result = label("2018-11-03T10:00:00-03:00", now: "2018-11-03T20:00:00-03:00", timeZone: "America/Sao_Paulo")
    #expect(result.validUntil == Pinned.instant("2018-11-04T01:00:00-02:00"))
    // Apia skipped 30 December 2011: the day after the 29th began on the 31st.
    let apia = label("2011-12-29T08:00:00-10:00", now: "2011-12-29T12:00:00-10:00", timeZone: "Pacific/Apia")
    #expect(apia.validUntil == Pinned.instant("2011-12-31T00:00:00+14:00"))
  }

  @Test func localesHaveTheirOwnWordsAndFormats() {
    let lastWeekday = Self.daysBack(DateBucket.weekdayDays.upperBound)
    #expect(label("2022-01-31T08:45:33Z", locale: "fr-FR").text == "09:45")
    #expect(label("2022-01-30T17:54:37Z", locale: "fr-FR").text == "Hier")
    #expect(label(lastWeekday, locale: "fr-FR").text == Self.weekday(lastWeekday, locale: "fr-FR"))
    #expect(label("2022-01-03T12:54:23Z", locale: "fr-FR").text == "03/01/2022")
    #expect(label("2022-01-31T08:45:33Z", locale: "de-DE").text == "09:45")
    #expect(label("2022-01-30T17:54:37Z", locale: "de-DE").text == "Gestern")
    #expect(label(lastWeekday, locale: "de-DE").text == Self.weekday(lastWeekday, locale: "de-DE"))
    #expect(label("2022-01-03T12:54:23Z", locale: "de-DE").text == "03.01.22")
    #expect(label("2022-01-30T17:54:37Z", locale: "ja-JP").text == "昨日")
    #expect(label(lastWeekday, locale: "ja-JP").text == Self.weekday(lastWeekday, locale: "ja-JP"))
    #expect(label("2022-01-03T12:54:23Z", locale: "ja-JP").text == "2022/01/03")
    #expect(label("2022-01-31T08:45:33Z", locale: "en-GB").text == "09:45")
    #expect(label("2022-01-03T12:54:23Z", locale: "en-GB").text == "03/01/2022")
    #expect(label("2022-01-30T17:54:37Z", locale: "tr-TR").text == "Dün")
  }

  @Test func theLocalesOwnCalendar() {
    // 2022-01-03 is 2565 in the Buddhist era and 13 Dey 1400 in the Persian calendar.
    #expect(label("2022-01-03T12:54:23Z", locale: "th-TH", timeZone: "Asia/Bangkok").text.hasSuffix("/65"))
    #expect(label("2022-01-03T12:54:23Z", locale: "fa-IR", timeZone: "Asia/Tehran").text.hasPrefix("۱۴۰۰"))
  }

  @Test func hourCycleOverride() {
    #expect(label("2022-01-31T08:45:33Z", hourCycle: .twentyFourHour).text == "09:45")
    #expect(label("2022-01-31T14:05:00Z", locale: "en-US-u-hc-h23").text == "15:05")
    #expect(label("2022-01-31T14:05:00Z", locale: "de-DE", hourCycle: .twelveHour).text.hasPrefix("3:05"))
    #expect(label("2022-01-31T14:05:00Z", locale: "de-DE").text == "15:05")
  }

  /// A tag with an extension ICU cannot read is formatted as the rest of it,
  /// in every date style and in the spoken date: Foundation's date
  /// formatters would trap on its keywords.
  @Test(arguments: [
    ("th-t-nu0nu-u-nu-thai", "th-u-nu-thai"), ("th-TH-T-nu0nu-tla-Tn-u-nu-thai-hc-h23", "th-TH-u-hc-h23-nu-thai"),
    ("en-US-t-m0-u-ca-japanese", "en-US-u-ca-japanese"), ("ar-EG-t-0x-u-nu-latn", "ar-EG-u-nu-latn"),
  ])
  func aTagICUCannotReadIsFormattedAsTheRestOfIt(tag: String, rest: String) {
    #expect(!Locale(identifier: tag).isReadByICU)
    #expect(Locale(identifier: rest).isReadByICU)
    let dates = [
      "2022-01-31T08:45:33Z", "2022-01-30T17:54:37Z", "2022-01-25T17:12:33Z", "2022-01-03T12:54:23Z",
      "2020-06-01T00:00:00Z",
    ]
    for style in DateStyle.all {
      let broken = PlainRules(context: Pinned.context(locale: tag).dateStyle(style))
      let readable = PlainRules(context: Pinned.context(locale: rest).dateStyle(style))
      for date in dates.map(Pinned.instant) {
        #expect(broken.dateLabel(for: date) == readable.dateLabel(for: date), "\(tag) \(style) \(date)")
        #expect(broken.spokenDate(for: date) == readable.spokenDate(for: date), "\(tag) \(date)")
      }
    }
  }

  @Test func posixStyleLocaleNamesDoNotTrap() {
    #expect(label("2022-01-30T17:54:37Z", locale: "de_DE.ISO-8859-15@euro").text == "Gestern")
    #expect(label("2022-01-31T08:45:33Z", locale: "fr_FR.UTF-8").text == "09:45")
  }

  /// The weekdays, full and abbreviated, are what Foundation's format style
  /// writes for a lone weekday field at the start of a sentence, for every
  /// locale ICU has, in its own calendar and in another.
  @Test func weekdaysAreTheStylesAtTheStartOfASentence() {
    var capitalized = 0
    for identifier in Locale.availableIdentifiers {
      let locale = formattableLocale(Locale(identifier: Locale.identifier(.bcp47, from: identifier)))
      for kind in [locale.calendar.identifier, .japanese] {
        var calendar = Calendar(identifier: kind)
        calendar.timeZone = wallClockZone
        let uncapitalized = Date.FormatStyle(locale: locale, calendar: calendar, timeZone: wallClockZone)
        let style = Date.FormatStyle(
          locale: locale, calendar: calendar, timeZone: wallClockZone, capitalizationContext: .beginningOfSentence)
        for day in Int64(0)..<7 {
          let wide = style.weekday(.wide).format(noon(ofLocalDay: day))
          let name = weekdayName(onLocalDay: day, .wide, locale: locale, calendar: calendar)
          #expect(name == wide, "\(identifier) \(kind) day \(day)")
          let abbreviated = style.weekday(.abbreviated).format(noon(ofLocalDay: day))
          #expect(
            weekdayName(onLocalDay: day, .abbreviated, locale: locale, calendar: calendar) == abbreviated,
            "\(identifier) \(kind) day \(day)")
          if uncapitalized.weekday(.wide).format(noon(ofLocalDay: day)) != wide { capitalized += 1 }
        }
      }
    }
    // Many names take a capital CLDR does not give them: French, Spanish,
    // Russian…
    #expect(capitalized > 1_000)
  }
}
