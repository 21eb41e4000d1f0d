import Foundation
import Testing

@testable import InboxFormat

/// The date labeler (an offset table around now, labels remembered by
/// local minute and day) against the date rule (`dateLabel(for:now:days:words:)`,
/// asking the zone for every offset), for instants from a century back to
/// a year ahead in zones with daylight saving time, half and quarter hours,
/// a skipped day and a skipped midnight.
@Suite struct DateLabelerTests {
  static let zones = [
    "Europe/Paris", "America/Sao_Paulo", "Pacific/Apia", "Australia/Lord_Howe", "Asia/Kathmandu", "America/Havana",
    "Asia/Gaza", "UTC", "Pacific/Chatham", "America/St_Johns",
  ]
  static let nows = [
    "2022-01-31T12:00:00Z", "2018-11-03T23:30:00-03:00", "2011-12-30T10:00:00Z", "2022-10-30T00:30:00Z",
  ]

  @Test(arguments: zones)
  func theLabelerGivesTheRulesLabel(zone: String) {
    var random = SplitMix(seed: UInt64(zone.utf8.count) &* 977)
    for (index, nowText) in Self.nows.enumerated() {
      let context = Pinned.context(
        now: Pinned.instant(nowText), locale: ["en-US", "ar-EG", "th-TH", "ja-JP-u-ca-japanese"][index], timeZone: zone)
      let rules = PlainRules(context: context)
      let tables = ContextTables(context: context)
      tables.withStringRules { rows in
        for step in 0..<1_500 {
          // Most within a fortnight of now, some years away: inside and outside the offset table.
          let span: Double = step % 5 == 0 ? 100 * 365 * 86_400 : 14 * 86_400
          let seconds = (Double(random.next(below: 2_000_001)) / 1_000_000 - 1) * span + (step % 7 == 0 ? span / 2 : 0)
          let date = context.now.addingTimeInterval(seconds.rounded())
          let expected = rules.dateLabel(for: date)
          #expect(rows.dateLabel(for: date) == expected, "\(date) in \(zone) at \(nowText)")
          #expect(rows.dateLabel(for: date) == expected, "remembered: \(date) in \(zone)")
        }
      }
    }
  }

  /// Every other style and the spoken date through the labeler (offsets
  /// from its table, tomorrow made once) against the rule asking the zone,
  /// for instants within two hours of now, where relative labels change,
  /// and within years of it.
  @Test(arguments: zones)
  func theLabelerGivesTheRulesLabelInEveryStyle(zone: String) {
    var random = SplitMix(seed: UInt64(zone.utf8.count) &* 131)
    for (index, nowText) in Self.nows.enumerated() {
      let locale = ["en-US", "fa-IR", "th-TH", "ja-JP-u-ca-japanese"][index]
      for style in [LabelStyle.compact, .relative, .spoken] {
        let context = Pinned.context(now: Pinned.instant(nowText), locale: locale, timeZone: zone)
        let days = LocalDays(timeZone: context.timeZone)
        let words = DateWords(locale: context.locale, calendar: context.calendar, hourCycle: nil)
        let labeler = LabelerDays(days: days).labeler(now: context.now)
        // Short tables for every other now: 600 dates in their slots push each other out.
        var memo = MemoTables(made: MadeLabels(), isShort: index.isMultiple(of: 2))
        for step in 0..<600 {
          let span: Double = step % 3 == 0 ? 3 * 365 * 86_400 : 2 * 3_600
          let seconds = (Double(random.next(below: 2_000_001)) / 1_000_000 - 1) * span
          let date = context.now.addingTimeInterval(seconds.rounded())
          let expected = dateLabel(for: date, now: context.now, days: days, words: words, style: style)
          #expect(
            labeler.label(for: date, style: style, words: words, memo: &memo) == expected,
            "\(style) \(date) in \(zone) at \(nowText)")
          #expect(
            labeler.label(for: date, style: style, words: words, memo: &memo) == expected,
            "remembered: \(style) \(date) in \(zone) at \(nowText)")
        }
      }
    }
  }

  /// The tables for another instant share what was remembered and still gives
  /// the rule's labels.
  @Test func tablesForAnotherNowGivesThatNowsLabels() {
    let context = Pinned.context()
    let tables = ContextTables(context: context)
    let message = Pinned.instant("2022-01-31T08:45:33Z")
    let hoursLater: [Double] = [0, 11, 12, 36, 192]
    for hours in hoursLater {
      let later = tables.now(context.now.addingTimeInterval(hours * 3_600))
      let expected = PlainRules(context: context.now(later.context.now)).dateLabel(for: message)
      #expect(later.withStringRules { $0.dateLabel(for: message) } == expected, "\(hours) h later")
    }
  }

  /// Makers for other instants share the labels remembered by day in the
  /// other styles, and still give each instant's labels.
  @Test(arguments: [DateStyle.compact, .relative])
  func makersForOtherNowsShareStyledLabelsRightly(style: DateStyle) {
    let context = Pinned.context(locale: "fa-IR", timeZone: "Asia/Tehran").dateStyle(style).fields(RowField.all)
    let tables = ContextTables(context: context)
    let messages = [
      "2022-01-30T10:00:00Z", "2022-01-25T10:00:00Z", "2022-01-03T08:00:00Z", "2021-12-20T10:00:00Z",
      "2021-03-01T10:00:00Z",
    ].map(Pinned.instant)
    for hours in [0, 1, 11, 12, 36, 192, 24 * 60] as [Double] {
      let now = context.now.addingTimeInterval(hours * 3_600)
      let later = tables.now(now)
      let rules = PlainRules(context: context.now(now))
      for message in messages {
        #expect(
          later.withStringRules { $0.dateLabel(for: message) } == rules.dateLabel(for: message), "\(hours) h later")
        #expect(
          later.withStringRules { $0.spokenDate(for: message) } == rules.spokenDate(for: message), "\(hours) h later")
      }
    }
  }

  /// Labelers for a run of instants that share their day (``LabelerDays``),
  /// as a service's requests do, give the rule's labels at each: across
  /// midnights, offset changes and a clock turned back past midnight
  /// (America/Santiago, America/Asuncion), with now sometimes going back.
  @Test(arguments: zones + ["America/Santiago", "America/Asuncion"])
  func labelersSharingTheirDayGiveEachNowsLabels(zone: String) {
    var random = SplitMix(seed: UInt64(zone.utf8.count) &* 7_919)
    let days = LocalDays(timeZone: TimeZone(identifier: zone)!)
    let words = DateWords(
      locale: Locale(identifier: "en-US"), calendar: Calendar(identifier: .gregorian), hourCycle: nil)
    let shared = LabelerDays(days: days)
    var memo = MemoTables(made: MadeLabels(), isShort: false)
    var now = Pinned.instant("2021-09-01T00:00:00Z")
    for step in 0..<400 {
      // Forward by up to a day and a half, or back by up to three hours.
      let seconds = step % 9 == 0 ? -Double(random.next(below: 3 * 3_600)) : Double(random.next(below: 36 * 3_600))
      now = now.addingTimeInterval(seconds)
      let labeler = shared.labeler(now: now)
      for probe in 0..<12 {
        let span: Double = probe % 4 == 0 ? 2 * 365 * 86_400 : 3 * 86_400
        let date = now.addingTimeInterval(((Double(random.next(below: 2_000_001)) / 1_000_000 - 1) * span).rounded())
        for style in [LabelStyle.standard, .relative] {
          let expected = dateLabel(for: date, now: now, days: days, words: words, style: style)
          #expect(
            labeler.label(for: date, style: style, words: words, memo: &memo) == expected,
            "\(style) \(date) in \(zone) at \(now)")
        }
      }
    }
  }

  /// A day holds the later instants of its local day, and no other.
  @Test func aDayHoldsItsLaterInstantsOnly() {
    let days = LocalDays(timeZone: TimeZone(identifier: "Europe/Paris")!)
    let noon = Pinned.instant("2022-01-31T12:00:00Z").wholeSecondsSince1970
    let day = LabelerDay(now: noon, days: days)
    #expect(day.holds(noon))
    #expect(day.holds(noon + 10 * 3_600))  // 23:00 in Paris
    #expect(!day.holds(noon + 11 * 3_600))  // midnight in Paris
    #expect(!day.holds(noon - 1))
  }

  @Test(arguments: zones)
  func theOffsetTableIsTheZones(zone: String) {
    let days = LocalDays(timeZone: TimeZone(identifier: zone)!)
    let now: Int64 = 1_643_630_400
    let table = OffsetTable(days, from: now - 731 * secondsPerDay, until: now + 366 * secondsPerDay)
    var random = SplitMix(seed: 42)
    for _ in 0..<5_000 {
      let seconds = now - 731 * secondsPerDay + Int64(random.next(below: Int(1_097 * secondsPerDay)))
      #expect(table.offset(at: seconds) == days.offset(at: seconds), "\(seconds) in \(zone)")
    }
    #expect(table.offset(at: now - 732 * secondsPerDay) == nil)
  }
}
