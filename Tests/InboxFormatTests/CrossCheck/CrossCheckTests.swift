import Foundation
import Testing

@testable import InboxFormat

/// The date labels of thousands of generated cases — over a hundred locales,
/// fifty zones, instants around midnights, New Year, leap days and offset
/// transitions — against Node's `Intl`, an independent ICU/CLDR, and their
/// expiry against an independent search for the next local day.
///
/// `Data/crosscheck/labels.ndjson` is written by `Scripts/generate-crosscheck.js`.
/// A label that differs must be explained by an entry of
/// `Data/crosscheck/differences.json` (the reasons are in `DIFFERENCES.md`);
/// an expiry instant must be identical.
@Suite struct CrossCheckTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Data/crosscheck")

  static let scenarios: [Scenario] = {
    let text = try! String(contentsOf: directory.appendingPathComponent("labels.ndjson"), encoding: .utf8)
    let decoder = JSONDecoder()
    return text.split(separator: "\n").map { try! decoder.decode(Scenario.self, from: Data($0.utf8)) }
  }()

  static let differences: [Difference] = {
    let data = try! Data(contentsOf: directory.appendingPathComponent("differences.json"))
    return try! JSONDecoder().decode(DifferenceFile.self, from: data).differences
  }()

  /// Every label, compared: equal, or made equal by the differences that apply to it.
  static let outcomes: [Outcome] = scenarios.flatMap(\.outcomes)

  @Test func coversTheWorld() {
    let locales = Set(Self.scenarios.map(\.locale))
    let zones = Set(Self.scenarios.map(\.timeZone))
    #expect(Self.outcomes.count >= 3000)
    #expect(locales.count >= 60)
    #expect(zones.count >= 30)
    for locale in ["ar-EG", "ar-SA", "he-IL", "fa-IR", "ur-PK", "th-TH", "ja-JP-u-ca-japanese"] {
      #expect(locales.contains(locale), "\(locale) is not cross-checked")
    }
    for zone in [
      "Pacific/Apia", "America/Sao_Paulo", "Asia/Gaza", "America/Havana", "Asia/Kathmandu", "Pacific/Chatham",
    ] {
      #expect(zones.contains(zone), "\(zone) is not cross-checked")
    }
    let buckets = Dictionary(grouping: Self.outcomes, by: \.bucket).mapValues(\.count)
    for bucket in Bucket.allCases { #expect(buckets[bucket, default: 0] >= 300, "few \(bucket) labels") }
  }

  @Test func everyLabelMatchesNodeOrAnExplainedDifference() {
    let unexplained = Self.outcomes.filter { $0.explanation == nil }
    for outcome in unexplained.prefix(40) {
      Issue.record(
        """
        \(outcome.scenario.locale) in \(outcome.scenario.timeZone) at \(outcome.scenario.nowLocal)\
        \(outcome.scenario.hourCycle.map { " --hour-cycle \($0)" } ?? ""), \(outcome.bucket), \
        message at \(outcome.label.instant): got \(outcome.actual.debugDescription), \
        Node says \(outcome.label.expected.debugDescription)
        """)
    }
    #expect(unexplained.count == 0, "labels that differ from Node without an explanation, of \(Self.outcomes.count)")
  }

  @Test func everyExplainedDifferenceIsStillNeeded() {
    let used = Set(Self.outcomes.flatMap { $0.explanation ?? [] })
      .union(StylesCrossCheckTests.compared.flatMap { $0.explanation ?? [] })
    for difference in Self.differences where !used.contains(difference.id) {
      Issue.record(
        "differences.json: \(difference.id) explains no label any more; remove it and its line in DIFFERENCES.md")
    }
    // The count per difference, for the record.
    let counts = Dictionary(grouping: Self.outcomes.flatMap { $0.explanation ?? [] }, by: { $0 }).mapValues(\.count)
    let exact = Self.outcomes.filter { $0.explanation == [] }.count
    print(
      "cross-check: \(Self.outcomes.count) labels, \(exact) identical to Node, explained: "
        + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
  }

  @Test func everyDifferenceIsDocumented() throws {
    let prose = try String(contentsOf: Self.directory.appendingPathComponent("DIFFERENCES.md"), encoding: .utf8)
    for difference in Self.differences {
      #expect(prose.contains("`\(difference.id)`"), "DIFFERENCES.md does not explain \(difference.id)")
      #expect(!difference.reason.isEmpty)
    }
  }

  @Test func expiryIsTheFirstInstantOfTheNextLocalDayEverywhere() {
    // No tolerance: a label's expiry is a fact about the zone, not about CLDR.
    let wrong = Self.outcomes.filter { $0.actualValidUntil != $0.label.validUntil }
    for outcome in wrong.prefix(20) {
      Issue.record(
        """
        \(outcome.scenario.timeZone) at \(outcome.scenario.nowLocal), message at \(outcome.label.instant): \
        valid until \(String(describing: outcome.actualValidUntil)), Node's search says \(String(describing: outcome.label.validUntil))
        """)
    }
    #expect(wrong.count == 0, "expiry instants that differ from Node's search")
  }
}

// MARK: - The data

enum Bucket: String, CaseIterable, Codable, CustomStringConvertible {
  case time, yesterday, weekday, date

  /// The rule's bucket (``DateBucket``), a later day's date counted with the dates.
  init(days: Int64) {
    switch DateBucket(daysAgo: days) {
    case .time: self = .time
    case .yesterday: self = .yesterday
    case .weekday: self = .weekday
    case .date, .laterDay: self = .date
    }
  }

  var description: String { rawValue }
}

struct Scenario: Decodable, Sendable {
  var locale: String
  var timeZone: String
  var now: Int64
  var nowLocal: String
  var hourCycle: String?
  var why: String
  var labels: [Label]

  struct Label: Decodable, Sendable {
    var instant: Int64
    var days: Int64
    var expected: String
    var validUntil: Int64?

    init(from decoder: any Decoder) throws {
      var row = try decoder.unkeyedContainer()
      instant = try row.decode(Int64.self)
      days = try row.decode(Int64.self)
      expected = try row.decode(String.self)
      validUntil = try row.decodeIfPresent(Int64.self)
    }
  }

  func context(calendar: Calendar? = nil) -> FormattingContext {
    FormattingContext(
      now: Date(timeIntervalSince1970: Double(now)),
      locale: Locale(identifier: locale),
      timeZone: TimeZone(identifier: timeZone)!,
      calendar: calendar,
      hourCycle: hourCycle.map { $0 == "12" ? .twelveHour : .twentyFourHour })
  }

  var outcomes: [Outcome] {
    let mapper = MessageMapper(context: context())
    let rows = labels.map { label in
      mapper.map(
        MessageAPIModel(id: .integer(label.instant), updateDate: Date(timeIntervalSince1970: Double(label.instant))))
    }
    return zip(labels, rows).map { label, row in
      Outcome(
        scenario: self, label: label, actual: row.date,
        actualValidUntil: row.dateValidUntil.map { Int64($0.timeIntervalSince1970) })
    }
  }
}

struct Outcome: Sendable {
  var scenario: Scenario
  var label: Scenario.Label
  var actual: String
  var actualValidUntil: Int64?

  var bucket: Bucket { Bucket(days: label.days) }

  /// nil when the label differs without an explanation; otherwise the ids of
  /// the differences needed (empty when it is identical to Node's).
  var explanation: [String]? {
    if actual == label.expected { return [] }
    let applicable = CrossCheckTests.differences.filter { $0.applies(to: scenario.locale, bucket: bucket.rawValue) }
    guard !applicable.isEmpty else { return nil }
    var foundation = actual
    if let calendar = applicable.compactMap(\.calendar).first {
      let mapper = MessageMapper(context: scenario.context(calendar: Calendar(identifier: calendar.identifier)))
      foundation =
        mapper.map(MessageAPIModel(id: .integer(0), updateDate: Date(timeIntervalSince1970: Double(label.instant))))
        .date
    }
    var node = label.expected
    for difference in applicable {
      foundation = difference.rewrite(foundation, with: difference.foundation)
      node = difference.rewrite(node, with: difference.node)
    }
    guard foundation == node else { return nil }
    // Credit only the differences that changed something.
    return applicable.filter { difference in
      difference.calendar != nil
        || difference.rewrite(actual, with: difference.foundation) != actual
        || difference.rewrite(label.expected, with: difference.node) != label.expected
    }.map(\.id)
  }
}

struct DifferenceFile: Decodable {
  var differences: [Difference]
}

struct Difference: Decodable, Sendable {
  var id: String
  var cause: String
  var locales: [String]
  /// The labels it applies to: a ``Bucket`` of the standard style, or one
  /// of ``StylesCrossCheckTests``' (`now`, `minutes-ago`, `badge`…).
  var buckets: [String]
  var foundation: [Rewrite]
  var node: [Rewrite]
  var calendar: CalendarName?
  var reason: String

  enum CalendarName: String, Decodable, Sendable {
    case gregorian
    var identifier: Calendar.Identifier { .gregorian }
  }

  /// One step: a regular expression and its template, or a named operation.
  enum Rewrite: Decodable, Sendable {
    case replace(pattern: String, template: String)
    case latinDigits

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let name = try? container.decode(String.self) {
        guard name == "latin-digits" else {
          throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown rewrite \(name)")
        }
        self = .latinDigits
      } else {
        let pair = try container.decode([String].self)
        self = .replace(pattern: pair[0], template: pair[1])
      }
    }
  }

  func applies(to locale: String, bucket: String) -> Bool {
    // An id also covers its -u- variants, except that a difference of calendar
    // does not apply to a locale that names its calendar.
    buckets.contains(bucket)
      && locales.contains { id in
        id == "*" || locale == id || (locale.hasPrefix(id + "-u-") && (calendar == nil || !locale.contains("-ca-")))
      }
  }

  func rewrite(_ text: String, with steps: [Rewrite]) -> String {
    steps.reduce(text) { text, step in
      switch step {
      case .replace(let pattern, let template):
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.stringByReplacingMatches(
          in: text, range: NSRange(text.startIndex..., in: text), withTemplate: template)
      case .latinDigits:
        return String(
          String.UnicodeScalarView(
            text.unicodeScalars.map { scalar in
              scalar.properties.numericType == .decimal
                ? Unicode.Scalar(UInt8(ascii: "0") + UInt8(scalar.properties.numericValue!)) : scalar
            }))
      }
    }
  }
}
