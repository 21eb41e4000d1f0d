import Foundation
import Testing

/// `--skip-invalid`, end to end: invalid messages are left out, each named
/// on standard error, then counted; the status says whether any was.
@Suite struct SkipInvalidTests {
  static let pinned = BadInputTests.pinned + ["--skip-invalid"]

  static let payload = """
    {"items": [
      {"id": 1, "firstname": "Ann", "update_date": "2022-01-31T08:45:33Z"},
      {"id": 2, "update_date": "2022-13-01T00:00:00Z"},
      {"update_date": "2022-01-31T08:45:33Z"},
      {"id": "four", "firstname": 4, "update_date": "2022-01-31T08:45:33Z"},
      [5],
      {"id": 6, "firstname": "Bob", "update_date": "2022-01-30T08:45:33Z"}
    ]}
    """

  static let skippedLines = [
    #"inbox-format: <stdin>: skipped: line 3, column 28: items[1].update_date (id 2): invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z""#,
    #"inbox-format: <stdin>: skipped: line 4, column 3: items[2].id: missing required field "id"; expected an integer or a string"#,
    #"inbox-format: <stdin>: skipped: line 5, column 31: items[3].firstname (id "four"): found a number; expected a string"#,
    #"inbox-format: <stdin>: skipped: line 6, column 3: items[4]: found an array; expected a message object"#,
    "inbox-format: <stdin>: skipped 4 invalid messages",
  ]

  @Test func leavesInvalidMessagesOutAndNamesEach() throws {
    let result = try BuiltBinary.run(Self.pinned, stdin: Data(Self.payload.utf8))
    #expect(result.status == 3)
    #expect(!result.wasSignaled)
    #expect(result.stderr.split(separator: "\n").map(String.init) == Self.skippedLines)
    let rows = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    #expect(rows.map { $0["title"] as? String } == ["Ann", "Bob"])
  }

  @Test(arguments: [["--output", "ndjson"], ["--output", "text"], ["--pretty"]])
  func everyOutputSkipsTheSame(options: [String]) throws {
    let result = try BuiltBinary.run(Self.pinned + options, stdin: Data(Self.payload.utf8))
    #expect(result.status == 3)
    #expect(result.stderr.split(separator: "\n").map(String.init) == Self.skippedLines)
    #expect(result.stdoutText.contains("Ann") && result.stdoutText.contains("Bob"))
  }

  @Test func aBrokenNDJSONLineIsNamedByItsLineAndIndex() throws {
    let valid = BadInputTests.valid
    let ndjson = [
      valid, #"{"id":2,"update_date":"2022-01-31T08:45:33Z""#, valid, "", #"{"id":4,"update_date":"nope"}"#, valid,
    ]
    .joined(separator: "\n")
    let result = try BuiltBinary.run(Self.pinned + ["--output", "ndjson"], stdin: Data(ndjson.utf8))
    #expect(result.status == 3)
    #expect(result.stdoutText.split(separator: "\n").count == 3)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(
      lines[0].hasPrefix("inbox-format: <stdin>: skipped: line 2, column 45: [1]: invalid JSON: unexpected end of line")
    )
    #expect(
      lines[1].hasPrefix(
        #"inbox-format: <stdin>: skipped: line 5, column 23: [3].update_date (id 4): invalid date "nope""#))
    #expect(lines[2] == "inbox-format: <stdin>: skipped 2 invalid messages")
  }

  @Test func nothingInvalidIsStatusZeroAndSilent() throws {
    let result = try BuiltBinary.run(Self.pinned + [CommandLineTests.example])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(try JSONSerialization.jsonObject(with: result.stdout) is [Any])
  }

  @Test func aDocumentThatIsNotJSONIsStillRefused() throws {
    // A syntax error in a payload leaves nothing to read on from: 65, no output.
    let broken = Self.payload.replacingOccurrences(of: #""id": 6,"#, with: #""id": 6,,"#)
    let result = try BuiltBinary.run(Self.pinned, stdin: Data(broken.utf8))
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    // The items skipped before it are reported, then the error; no count.
    #expect(lines.count == 5)
    #expect(
      lines.last?.hasPrefix("inbox-format: <stdin>: line 7, column 12: invalid JSON: unexpected character \",\"")
        == true)
  }

  @Test func withoutTheFlagTheFirstInvalidMessageFailsTheRun() throws {
    let result = try BuiltBinary.run(BadInputTests.pinned, stdin: Data(Self.payload.utf8))
    expectRefused(result, saying: ["line 3, column 28: items[1].update_date (id 2): invalid date"])
  }

  @Test func helpDocumentsTheStatus() throws {
    let result = try BuiltBinary.run(["--help"])
    #expect(result.stdoutText.contains("3 invalid messages left out"))
    let format = try BuiltBinary.run(["format", "--help"])
    #expect(format.stdoutText.contains("--skip-invalid"))
  }
}
