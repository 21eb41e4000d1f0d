import Foundation
import Testing

@testable import InboxFormat

/// The compact and relative date styles and the spoken date, through the
/// rules (``PlainRules``), at the README's now: 2022-01-31 12:00 UTC, 13:00
/// in Paris. Expected words are CLDR's, as Node's `Intl` writes them.
@Suite struct DateStyleTests {
  func label(
    _ date: String, style: DateStyle, locale: String = "en-US", timeZone: String = "Europe/Paris"
  ) -> DateLabel {
    PlainRules(context: Pinned.context(locale: locale, timeZone: timeZone).dateStyle(style))
      .dateLabel(for: Pinned.instant(date))
  }

  func spoken(_ date: String, locale: String = "en-US", timeZone: String = "Europe/Paris") -> DateLabel {
    PlainRules(context: Pinned.context(locale: locale, timeZone: timeZone)).spokenDate(for: Pinned.instant(date))
  }

  static let tomorrow = Pinned.instant("2022-01-31T23:00:00Z")  // 2022-02-01 00:00 Paris

  // MARK: compact

  @Test func compactIsStandardForTodayAndYesterday() {
    #expect(
      label("2022-01-31T08:45:33Z", style: .compact) == DateLabel(text: "9:45\u{202F}AM", validUntil: Self.tomorrow))
    #expect(label("2022-01-30T10:00:00Z", style: .compact) == DateLabel(text: "Yesterday", validUntil: Self.tomorrow))
  }

  /// The last day of the weekday bucket back, abbreviated as the locale
  /// abbreviates it (``DateLabelTests/weekday(_:locale:timeZone:format:)``).
  @Test(arguments: [
    ("en-US", "Europe/Paris"), ("fr-FR", "Europe/Paris"), ("ja-JP", "Asia/Tokyo"), ("ru-RU", "Europe/Moscow"),
  ])
  func compactAbbreviatesWeekdays(locale: String, timeZone: String) {
    let date = DateLabelTests.daysBack(DateBucket.weekdayDays.upperBound)
    let expected = DateLabelTests.weekday(date, locale: locale, timeZone: timeZone, format: "EEE")
    let shown = label(date, style: .compact, locale: locale, timeZone: timeZone)
    #expect(shown.text == expected)
    if timeZone == "Europe/Paris" { #expect(shown.validUntil == Self.tomorrow) }
  }

  @Test func compactShowsMonthAndDayWithinNowsYearUntilItEnds() {
    let newYear = Pinned.instant("2022-12-31T23:00:00Z")  // 2023-01-01 00:00 Paris
    #expect(label("2022-01-03T08:00:00Z", style: .compact) == DateLabel(text: "Jan 3", validUntil: newYear))
    #expect(label("2022-01-03T08:00:00Z", style: .compact, locale: "fr-FR").text == "3 janv.")
    #expect(label("2022-01-03T08:00:00Z", style: .compact, locale: "ja-JP", timeZone: "Asia/Tokyo").text == "1月3日")
    #expect(label("2022-01-03T08:00:00Z", style: .compact, locale: "ar-EG", timeZone: "Africa/Cairo").text == "٣ يناير")
    // Last year: the short date, for good.
    #expect(label("2021-12-20T10:00:00Z", style: .compact) == DateLabel(text: "12/20/21", validUntil: nil))
  }

  @Test func compactYearsAreTheLocalesCalendars() {
    // 20 December 2021 is 29 Azar 1400, in the Persian year of 31 January 2022,
    // which ends at Nowruz: 1 Farvardin 1401 began 2022-03-21 00:00 in Tehran.
    #expect(
      label("2021-12-20T10:00:00Z", style: .compact, locale: "fa-IR", timeZone: "Asia/Tehran")
        == DateLabel(text: "۲۹ آذر", validUntil: Pinned.instant("2022-03-20T20:30:00Z")))
  }

  @Test func compactShowsLaterDaysAsShortDates() {
    #expect(
      label("2022-02-02T10:00:00+01:00", style: .compact)
        == DateLabel(text: "2/2/22", validUntil: Pinned.instant("2022-02-01T23:00:00Z")))
  }

  // MARK: relative

  @Test func relativeSaysNowFromAMinuteAheadTo59SecondsBack() {
    let message = Pinned.instant("2022-01-31T11:59:30Z")
    #expect(
      label("2022-01-31T11:59:30Z", style: .relative)
        == DateLabel(text: "Now", validUntil: message.addingTimeInterval(60)))
    #expect(label("2022-01-31T11:59:01Z", style: .relative).text == "Now")
    #expect(label("2022-01-31T12:01:00Z", style: .relative).text == "Now")
    #expect(label("2022-01-31T11:59:30Z", style: .relative, locale: "fr-FR").text == "Maintenant")
    #expect(label("2022-01-31T11:59:30Z", style: .relative, locale: "de-DE").text == "Jetzt")
    #expect(label("2022-01-31T11:59:30Z", style: .relative, locale: "fa-IR", timeZone: "Asia/Tehran").text == "اکنون")
  }

  @Test func relativeCountsWholeMinutesUntilTheNextOne() {
    #expect(
      label("2022-01-31T11:59:00Z", style: .relative)
        == DateLabel(text: "1 min. ago", validUntil: Pinned.instant("2022-01-31T12:01:00Z")))
    #expect(
      label("2022-01-31T11:54:50Z", style: .relative)
        == DateLabel(text: "5 min. ago", validUntil: Pinned.instant("2022-01-31T12:00:50Z")))
    #expect(
      label("2022-01-31T11:00:01Z", style: .relative)
        == DateLabel(text: "59 min. ago", validUntil: Pinned.instant("2022-01-31T12:00:01Z")))
    #expect(label("2022-01-31T11:54:50Z", style: .relative, locale: "fr-FR").text == "il y a 5\u{A0}min")
    #expect(label("2022-01-31T11:54:50Z", style: .relative, locale: "ja-JP", timeZone: "Asia/Tokyo").text == "5 分前")
    #expect(
      label("2022-01-31T11:54:50Z", style: .relative, locale: "ar-EG", timeZone: "Africa/Cairo").text == "قبل ٥ دقائق")
  }

  @Test func relativeIsStandardFromAnHourBackAndMoreThanAMinuteAhead() {
    #expect(
      label("2022-01-31T11:00:00Z", style: .relative) == DateLabel(text: "12:00\u{202F}PM", validUntil: Self.tomorrow))
    #expect(label("2022-01-30T10:00:00Z", style: .relative).text == "Yesterday")
    // Two hours ahead: the time until the message is a minute away, then now.
    #expect(
      label("2022-01-31T14:00:00Z", style: .relative)
        == DateLabel(text: "3:00\u{202F}PM", validUntil: Pinned.instant("2022-01-31T13:59:00Z")))
    // Days ahead: the short date until that day begins.
    #expect(
      label("2022-02-02T10:00:00+01:00", style: .relative)
        == DateLabel(text: "2/2/22", validUntil: Pinned.instant("2022-02-01T23:00:00Z")))
  }

  // MARK: spokenDate

  @Test func spokenDatesSayTheTimeTheWordTheWeekdayOrTheLongDate() {
    #expect(spoken("2022-01-31T08:45:33Z") == DateLabel(text: "9:45\u{202F}AM", validUntil: Self.tomorrow))
    #expect(spoken("2022-01-30T10:00:00Z") == DateLabel(text: "Yesterday", validUntil: Self.tomorrow))
    let lastWeekday = DateLabelTests.daysBack(DateBucket.weekdayDays.upperBound)
    #expect(
      spoken(lastWeekday) == DateLabel(text: DateLabelTests.weekday(lastWeekday), validUntil: Self.tomorrow))
    #expect(spoken("2022-01-03T08:00:00Z") == DateLabel(text: "January 3, 2022", validUntil: nil))
    #expect(
      spoken("2022-02-02T10:00:00+01:00")
        == DateLabel(text: "February 2, 2022", validUntil: Pinned.instant("2022-02-01T23:00:00Z")))
    #expect(spoken("2022-01-03T08:00:00Z", locale: "fr-FR").text == "3 janvier 2022")
    #expect(spoken("2022-01-03T08:00:00Z", locale: "ja-JP", timeZone: "Asia/Tokyo").text == "2022年1月3日")
    #expect(spoken("2021-12-20T10:00:00Z", locale: "fa-IR", timeZone: "Asia/Tehran").text == "۲۹ آذر ۱۴۰۰")
  }

  @Test func styleNamesReadBack() {
    for style in DateStyle.all { #expect(DateStyle(name: style.name) == style) }
    #expect(DateStyle(name: "spoken") == nil)
    #expect(DateStyle(name: "Compact") == nil)
  }
}
