import Foundation
import GoldenCases
import InboxFormat
import Testing

/// Every case in `Data/golden/cases`, run through the library and through the
/// built binary, must give exactly its `.expected.json`.
///
/// To record on purpose after a deliberate change, run
/// `inbox-format check --cases Data/golden/cases --update` (refused when
/// `CI` is set), which writes the bytes of `--pretty`.
@Suite struct GoldenFileTests {
  static let cases = GoldenCase.all

  @Test func thereAreCasesToRun() {
    #expect(Self.cases.count >= 10)
  }

  @Test(arguments: cases)
  func libraryMatchesGoldenFile(_ golden: GoldenCase) throws {
    let bytes = try [UInt8](Data(contentsOf: golden.inputURL))
    let rows = MessageMapper(context: golden.context).map(try InboxDecoder(mapping: golden.mapping).decode(bytes))
    let actual = InboxEncoder(layout: .pretty, fields: golden.context.fields).encode(rows)
    try expectMatchesGoldenFile(actual, golden)
  }

  @Test(arguments: cases)
  func binaryMatchesGoldenFile(_ golden: GoldenCase) throws {
    let result = try BuiltBinary.run(golden.arguments)
    #expect(result.status == 0, "stderr: \(result.stderr)")
    #expect(result.stderr.isEmpty)
    try expectMatchesGoldenFile([UInt8](result.stdout), golden)
  }

  private func expectMatchesGoldenFile(
    _ actual: [UInt8], _ golden: GoldenCase, sourceLocation: Testing.SourceLocation = #_sourceLocation
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

extension GoldenCase {
  /// The command's arguments for the case.
  var arguments: [String] {
    var arguments = ["--now", now, "--locale", locale, "--time-zone", timeZone, "--pretty"]
    if let hourCycle { arguments += ["--hour-cycle", hourCycle] }
    if let previewLength { arguments += ["--preview-length", String(previewLength)] }
    if let fields { arguments += ["--fields", fields] }
    if let dateStyle { arguments += ["--date-style", dateStyle] }
    if let badgeLimit { arguments += ["--badge-limit", String(badgeLimit)] }
    if let map { arguments += ["--map", map] }
    if let viewer { arguments += ["--viewer", viewer] }
    return arguments + [inputURL.path]
  }
}
