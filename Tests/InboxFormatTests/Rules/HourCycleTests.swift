import Foundation
import Testing

@testable import InboxFormat

/// The hour cycle, from `-u-hc-` in the locale or forced by the context:
/// 12-hour clocks use the locale's CLDR day periods, never a hard-coded AM/PM.
@Suite struct HourCycleTests {
  func time(
    _ date: String, locale: String, timeZone: String = "Europe/Paris", hourCycle: HourCycle? = nil
  ) -> String {
    let context = Pinned.context(locale: locale, timeZone: timeZone, hourCycle: hourCycle)
    return PlainRules(context: context).dateLabel(for: Pinned.instant(date)).text
  }

  @Test func theLocaleExtensionWorks() {
    #expect(time("2022-01-31T14:05:00Z", locale: "en-US-u-hc-h23") == "15:05")
    #expect(time("2022-01-31T14:05:00Z", locale: "de-DE-u-hc-h12") == "3:05 nachm.")
    #expect(time("2022-01-30T23:30:00Z", locale: "en-US-u-hc-h24") == "24:30")
    #expect(time("2022-01-30T23:30:00Z", locale: "ja-JP-u-hc-h11") == "午前0:30")
  }

  @Test func theContextOverridesTheLocaleExtension() {
    #expect(time("2022-01-31T14:05:00Z", locale: "en-US-u-hc-h23", hourCycle: .twelveHour) == "3:05\u{202F}PM")
    #expect(time("2022-01-31T14:05:00Z", locale: "en-US", hourCycle: .twentyFourHour) == "15:05")
  }

  @Test func twelveHourDayPeriodsAreTheLocales() {
    // CLDR timeData: France and Germany use flexible day periods (B) with a 12-hour clock.
    // (Foundation's data puts U+0020 before B and U+202F before a.)
    #expect(time("2022-01-31T08:45:00Z", locale: "fr-FR", hourCycle: .twelveHour) == "9:45 mat.")
    #expect(time("2022-01-31T08:45:00Z", locale: "zh-CN", hourCycle: .twelveHour) == "上午9:45")
    #expect(time("2022-01-31T08:45:00Z", locale: "ko-KR", hourCycle: .twelveHour) == "오전 9:45")
    #expect(time("2022-01-31T08:45:00Z", locale: "ar-EG", hourCycle: .twelveHour) == "٩:٤٥\u{00A0}ص")
    #expect(time("2022-01-31T08:45:00Z", locale: "es-ES", hourCycle: .twelveHour) == "9:45\u{202F}a.\u{202F}m.")
  }

  @Test func regionsWithoutATwelveHourClockStillGetOne() {
    // CLDR allows only H in Russia, Sweden and Czechia; the user asked for 12 hours anyway.
    #expect(time("2022-01-30T23:30:00Z", locale: "ru-RU", hourCycle: .twelveHour) == "12:30\u{202F}AM")
    #expect(time("2022-01-30T23:30:00Z", locale: "sv-SE", hourCycle: .twelveHour) == "12:30\u{202F}fm")
    #expect(time("2022-01-30T23:30:00Z", locale: "cs-CZ-u-hc-h12") == "12:30\u{202F}dop.")
    #expect(time("2022-01-30T23:30:00Z", locale: "ru-RU-u-hc-h11") == "0:30\u{202F}AM")
  }

  @Test func theHourCycleOfAPattern() {
    #expect(DateFormatter.hourCycle(ofPattern: "h:mm a") == .oneToTwelve)
    #expect(DateFormatter.hourCycle(ofPattern: "HH 'h' mm") == .zeroToTwentyThree)
    #expect(DateFormatter.hourCycle(ofPattern: "'kl'. K:mm") == .zeroToEleven)
    #expect(DateFormatter.hourCycle(ofPattern: "d/M/y") == nil)
  }
}
