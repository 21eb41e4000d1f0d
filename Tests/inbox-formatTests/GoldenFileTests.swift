import Foundation
import InboxFormat
import Testing

/// Every case in `Data/golden/cases`, run through the library and through the
/// built binary, must give exactly its `.expected.json`.
///
/// To record on purpose after a deliberate change, run
/// `INBOX_FORMAT_RECORD_GOLDEN=1 swift test --filter GoldenFileTests`; the
/// recording run fails so that it is never mistaken for a pass, and CI never records.
@Suite struct GoldenFileTests {
  struct Case: Decodable, CustomTestStringConvertible, Sendable {
    var name = ""
    var input: String
    var now: String
    var locale: String
    var timeZone: String
    var hourCycle: String?
    var previewLength: Int?
    /// `--fields`, `--date-style` and `--badge-limit`, as the command takes them.
    var fields: String?
    var dateStyle: String?
    var badgeLimit: Int?
    var note: String?

    private enum CodingKeys: String, CodingKey {
      case input, now, locale, timeZone, hourCycle, previewLength, fields, dateStyle, badgeLimit, note
    }

    var testDescription: String { name }

    var arguments: [String] {
      var arguments = ["--now", now, "--locale", locale, "--time-zone", timeZone, "--pretty"]
      if let hourCycle { arguments += ["--hour-cycle", hourCycle] }
      if let previewLength { arguments += ["--preview-length", String(previewLength)] }
      if let fields { arguments += ["--fields", fields] }
      if let dateStyle { arguments += ["--date-style", dateStyle] }
      if let badgeLimit { arguments += ["--badge-limit", String(badgeLimit)] }
      return arguments + [inputURL.path]
    }

    var inputURL: URL { dataDirectory.appendingPathComponent(input) }
    var expectedURL: URL { casesDirectory.appendingPathComponent("\(name).expected.json") }

    var context: FormattingContext {
      FormattingContext(
        now: try! Date(now, strategy: .iso8601),
        locale: Locale(identifier: locale),
        timeZone: TimeZone(identifier: timeZone)!,
        hourCycle: hourCycle.map { $0 == "12" ? .twelveHour : .twentyFourHour },
        previewLength: previewLength,
        fields: fieldList,
        dateStyle: dateStyle.map { DateStyle(name: $0)! } ?? .standard,
        badgeLimit: badgeLimit ?? FormattingContext.defaultBadgeLimit)
    }

    /// `fields` read by hand, as the command's reader is not the library's.
    var fieldList: [RowField] {
      guard let fields else { return RowField.defaults }
      return fields.split(separator: ",").flatMap { name in
        name == "default" ? RowField.defaults : [RowField(name: String(name))!]
      }
    }
  }

  static let casesDirectory = dataDirectory.appendingPathComponent("golden/cases")

  static let cases: [Case] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: casesDirectory.path)) ?? []
    return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") }.sorted().map { file in
      var golden = try! JSONDecoder().decode(Case.self, from: Data(contentsOf: casesDirectory.appendingPathComponent(file)))
      golden.name = String(file.dropLast(".json".count))
      return golden
    }
  }()

  static var isRecording: Bool {
    ProcessInfo.processInfo.environment["INBOX_FORMAT_RECORD_GOLDEN"] == "1"
      && ProcessInfo.processInfo.environment["CI"] == nil
  }

  @Test func thereAreCasesToRun() {
    #expect(Self.cases.count >= 10)
  }

  @Test(arguments: cases)
  func libraryMatchesGoldenFile(_ golden: Case) throws {
    let bytes = try [UInt8](Data(contentsOf: golden.inputURL))
    let rows = MessageMapper(context: golden.context).map(try InboxDecoder().decode(bytes))
    let actual = InboxEncoder(layout: .pretty, fields: golden.context.fields).encode(rows)
    if Self.isRecording {
      try Data(actual).write(to: golden.expectedURL)
      Issue.record("recorded \(golden.expectedURL.lastPathComponent); run again without INBOX_FORMAT_RECORD_GOLDEN")
      return
    }
    try expectMatchesGoldenFile(actual, golden)
  }

  @Test(arguments: cases)
  func binaryMatchesGoldenFile(_ golden: Case) throws {
    let result = try BuiltBinary.run(golden.arguments)
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stderr.isEmpty)
    guard !Self.isRecording else { return }
    try expectMatchesGoldenFile([UInt8](result.stdout), golden)
  }

  private func expectMatchesGoldenFile(
    _ actual: [UInt8], _ golden: Case, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let expected = try [UInt8](Data(contentsOf: golden.expectedURL))
    guard actual != expected else { return }
    let actualURL = FileManager.default.temporaryDirectory.appendingPathComponent("\(golden.name).actual.json")
    try Data(actual).write(to: actualURL)
    Issue.record(
      """
      \(golden.name) differs from its golden file (actual output in \(actualURL.path)):
      \(lineDiff(expected: String(decoding: expected, as: UTF8.self), actual: String(decoding: actual, as: UTF8.self)))
      """, sourceLocation: sourceLocation)
  }
}

/// The lines that differ, marked `-` (expected) and `+` (actual), with their line numbers.
func lineDiff(expected: String, actual: String) -> String {
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  var report: [String] = []
  for index in 0..<max(expectedLines.count, actualLines.count) {
    let old = index < expectedLines.count ? expectedLines[index] : nil
    let new = index < actualLines.count ? actualLines[index] : nil
    if old != new {
      if let old { report.append("\(index + 1) - \(old)") }
      if let new { report.append("\(index + 1) + \(new)") }
    }
  }
  return report.joined(separator: "\n")
}
