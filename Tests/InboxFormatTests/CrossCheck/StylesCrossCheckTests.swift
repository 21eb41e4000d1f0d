import Foundation
import Testing

@testable import InboxFormat

/// The compact and relative styles, the spoken date and the unread badge
/// of thousands of generated cases against Node's `Intl`, and the expiry
/// of each label against Node's own arithmetic: the next local day, the
/// end of the locale's calendar year, the next whole minute.
///
/// `Data/crosscheck/styles.ndjson` is written by
/// `node Scripts/generate-crosscheck.js --styles`. A label that differs must
/// be explained by an entry of `Data/crosscheck/differences.json`, as in
/// ``CrossCheckTests``; an expiry instant must be identical.
@Suite struct StylesCrossCheckTests {
  struct StyleScenario: Decodable, Sendable {
    var locale: String
    var timeZone: String
    var now: Int64
    var nowLocal: String
    var why: String
    var rows: [StyledRow]
    var badges: [Badge]

    struct StyledRow: Decodable, Sendable {
      var instant: Int64
      var days: Int64
      var compact: String
      var compactValidUntil: Int64?
      var relative: String
      var relativeValidUntil: Int64?
      var spoken: String
      var spokenValidUntil: Int64?

      init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        instant = try row.decode(Int64.self)
        days = try row.decode(Int64.self)
        compact = try row.decode(String.self)
        compactValidUntil = try row.decode(Int64?.self)
        relative = try row.decode(String.self)
        relativeValidUntil = try row.decode(Int64?.self)
        spoken = try row.decode(String.self)
        spokenValidUntil = try row.decode(Int64?.self)
      }
    }

    struct Badge: Decodable, Sendable {
      var count: Int64
      var limit: Int
      var text: String

      init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        count = try row.decode(Int64.self)
        limit = try row.decode(Int.self)
        text = try row.decode(String.self)
      }
    }

    func context(_ style: DateStyle, calendar: Calendar? = nil) -> FormattingContext {
      FormattingContext(
        now: Date(timeIntervalSince1970: Double(now)), locale: Locale(identifier: locale),
        timeZone: TimeZone(identifier: timeZone)!, calendar: calendar,
        fields: [.date, .dateValidUntil, .spokenDate], dateStyle: style)
    }
  }

  /// One label compared: what the library gives and what Node gives.
  struct Compared: Sendable {
    var scenario: String
    var locale: String
    var bucket: String
    var actual: String
    var expected: String
    var actualValidUntil: Int64?
    var expectedValidUntil: Int64?
    var explanation: [String]?
  }

  static let scenarios: [StyleScenario] = {
    let text = try! String(
      contentsOf: CrossCheckTests.directory.appendingPathComponent("styles.ndjson"), encoding: .utf8)
    let decoder = JSONDecoder()
    return text.split(separator: "\n").map { try! decoder.decode(StyleScenario.self, from: Data($0.utf8)) }
  }()

  static let compared: [Compared] = scenarios.flatMap(compare)

  /// The bucket of a label, for the differences that apply: the standard
  /// ones where a style falls back to the standard label, and the words only
  /// these styles have (`now`, `minutes-ago`, `abbreviated-weekday`,
  /// `month-day`, `long-date`, and `badge`).
  static func bucket(days: Int64, style: String, ago: Int64, withinYear: Bool) -> String {
    if style == "relative" && ago >= -60 && ago < 3_600 { return ago < 60 ? "now" : "minutes-ago" }
    switch DateBucket(daysAgo: days) {
    case .time: return "time"
    case .yesterday: return "yesterday"
    case .weekday: return style == "compact" ? "abbreviated-weekday" : "weekday"
    case .date: return style == "compact" && withinYear ? "month-day" : style == "spoken" ? "long-date" : "date"
    case .laterDay: return style == "spoken" ? "long-date" : "date"
    }
  }

  static func compare(_ scenario: StyleScenario) -> [Compared] {
    let compact = MessageMapper(context: scenario.context(.compact))
    let relative = MessageMapper(context: scenario.context(.relative))
    var out: [Compared] = []
    for row in scenario.rows {
      let message = MessageAPIModel(
        id: .integer(row.instant), updateDate: Date(timeIntervalSince1970: Double(row.instant)))
      let compactRow = compact.map(message)
      let relativeRow = relative.map(message)
      let ago = scenario.now - row.instant
      let cases: [(String, String, Date?, String, Int64?)] = [
        ("compact", compactRow.date, compactRow.dateValidUntil, row.compact, row.compactValidUntil),
        ("relative", relativeRow.date, relativeRow.dateValidUntil, row.relative, row.relativeValidUntil),
        ("spoken", compactRow.spokenDate ?? "", nil, row.spoken, row.spokenValidUntil),
      ]
      for (style, actual, validUntil, expected, expectedValidUntil) in cases {
        let bucket = bucket(days: row.days, style: style, ago: ago, withinYear: row.compactValidUntil != nil)
        var compared = Compared(
          scenario: "\(scenario.locale) in \(scenario.timeZone) at \(scenario.nowLocal), \(style)",
          locale: scenario.locale, bucket: bucket, actual: actual, expected: expected,
          actualValidUntil: validUntil.map { Int64($0.timeIntervalSince1970) }, expectedValidUntil: expectedValidUntil)
        // The spoken date's own expiry is the standard one (the row's staleness).
        if style == "spoken" { compared.actualValidUntil = expectedValidUntil }
        compared.explanation = explain(actual, expected, locale: scenario.locale, bucket: bucket) {
          calendar in
          let mapper = MessageMapper(
            context: scenario.context(style == "relative" ? .relative : .compact, calendar: calendar))
          let row = mapper.map(message)
          return style == "spoken" ? row.spokenDate ?? "" : row.date
        }
        out.append(compared)
      }
    }
    let mapper = MessageMapper(context: scenario.context(.standard).fields([.unreadBadge]))
    for badge in scenario.badges {
      let actual = mapper.context.badgeLimit(badge.limit).fields([.unreadBadge])
      let row = MessageMapper(context: actual).map(
        MessageAPIModel(
          id: .integer(0), updateDate: Date(timeIntervalSince1970: Double(scenario.now)), unreadCount: badge.count))
      var compared = Compared(
        scenario: "\(scenario.locale) badge of \(badge.count) limited to \(badge.limit)", locale: scenario.locale,
        bucket: "badge", actual: row.unreadBadge ?? "", expected: badge.text, actualValidUntil: nil,
        expectedValidUntil: nil)
      compared.explanation = explain(compared.actual, badge.text, locale: scenario.locale, bucket: "badge") { _ in
        compared.actual
      }
      out.append(compared)
    }
    return out
  }

  /// As ``Outcome/explanation``: the ids of the differences that make the
  /// two equal, empty when they are equal, nil when none does.
  static func explain(
    _ actual: String, _ expected: String, locale: String, bucket: String, inCalendar: (Calendar) -> String
  ) -> [String]? {
    if actual == expected { return [] }
    let applicable = CrossCheckTests.differences.filter { $0.applies(to: locale, bucket: bucket) }
    guard !applicable.isEmpty else { return nil }
    var foundation = actual
    if applicable.contains(where: { $0.calendar != nil }) { foundation = inCalendar(Calendar(identifier: .gregorian)) }
    var node = expected
    for difference in applicable {
      foundation = difference.rewrite(foundation, with: difference.foundation)
      node = difference.rewrite(node, with: difference.node)
    }
    guard foundation == node else { return nil }
    return applicable.filter { difference in
      difference.calendar != nil || difference.rewrite(actual, with: difference.foundation) != actual
        || difference.rewrite(expected, with: difference.node) != expected
    }.map(\.id)
  }

  @Test func coversTheWorld() {
    let locales = Set(Self.scenarios.map(\.locale))
    #expect(Self.compared.count >= 2_000)
    #expect(locales.count >= 60)
    for locale in ["ar-EG", "fa-IR", "he-IL", "ja-JP", "th-TH", "ar-SA-u-ca-islamic-umalqura", "zh-CN-u-ca-chinese"] {
      #expect(locales.contains(locale), "\(locale) is not cross-checked")
    }
    let buckets = Dictionary(grouping: Self.compared, by: \.bucket).mapValues(\.count)
    for bucket in ["now", "minutes-ago", "abbreviated-weekday", "month-day", "long-date", "badge"] {
      #expect(buckets[bucket, default: 0] >= 200, "few \(bucket) labels")
    }
  }

  @Test func everyLabelMatchesNodeOrAnExplainedDifference() {
    let unexplained = Self.compared.filter { $0.explanation == nil }
    for compared in unexplained.prefix(2000) {
      Issue.record(
        "\(compared.scenario), \(compared.bucket): got \(compared.actual.debugDescription), Node says \(compared.expected.debugDescription)"
      )
    }
    #expect(unexplained.count == 0, "labels that differ from Node without an explanation, of \(Self.compared.count)")
    let counts = Dictionary(grouping: Self.compared.flatMap { $0.explanation ?? [] }, by: { $0 }).mapValues(\.count)
    print(
      "styles cross-check: \(Self.compared.count) labels, \(Self.compared.filter { $0.explanation == [] }.count) identical, explained: "
        + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
  }

  @Test func everyExpiryIsNodesArithmetic() {
    // No tolerance: the next local day, the calendar year's end and the next
    // whole minute are facts about zones and calendars, not about CLDR.
    let wrong = Self.compared.filter { $0.actualValidUntil != $0.expectedValidUntil }
    for compared in wrong.prefix(20) {
      Issue.record(
        "\(compared.scenario), \(compared.bucket) \(compared.expected.debugDescription): valid until \(String(describing: compared.actualValidUntil)), Node says \(String(describing: compared.expectedValidUntil))"
      )
    }
    #expect(wrong.count == 0, "expiry instants that differ from Node's arithmetic")
  }
}
