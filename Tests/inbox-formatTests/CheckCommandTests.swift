import Foundation
import GoldenCases
import Testing

/// `check`, through the built binary: the payload's rows against a golden
/// file or a designer's mock, and a directory of cases.
@Suite struct CheckCommandTests {
  static let pinned = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]
  static let example = dataDirectory.appendingPathComponent("examples/messages.json").path
  static let mock = dataDirectory.appendingPathComponent("examples/messages.mock.json").path

  func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  func file(_ text: String, in directory: URL, name: String = "expected.json") throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// The post's hand-written mock against the rules: the three places where
  /// they disagree, and nothing else.
  @Test func thePostsMockDiffersWhereTheRulesDo() throws {
    let result = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, Self.mock])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stdoutText == """
        row 1, id 1: date: expected "09:45 AM", got "9:45\\u{202F}AM"
        row 3, id 3: title: expected "+33 6 45 67 66 66", got "+33 6 45 67 99 66"
        row 4, id 4: message: expected "This a very long message to test the line limit that must only displays 1 line, and not more this text must be troncated", got "This a very long message to test the line limit that must only displays 1 line"
        3 differences in 3 of 4 rows

        """)
    #expect(result.stderr.isEmpty)
  }

  @Test func theCommandsOwnRowsAgree() throws {
    let rows = try BuiltBinary.run(Self.pinned + ["--fields", "default,unreadBadge", Self.example])
    let directory = try temporaryDirectory()
    let expected = try file(rows.stdoutText, in: directory)
    let result = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, expected])
    #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
    #expect(result.stdoutText == "4 rows agree\n")
  }

  @Test func spacesAndBidiMarksAloneCountOnlyWhenStrict() throws {
    let directory = try temporaryDirectory()
    // U+0020 for U+202F, and a left-to-right mark added.
    let expected = try file(#"[{"id": 1, "date": "9:45 AM"}, {"id": 2, "date": "\u200eYesterday"}]"#, in: directory)
    let lenient = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, expected])
    #expect(lenient.status == 1, "the two rows EXPECTED lacks still count")
    #expect(
      lenient.stdoutText.contains(
        #"row 1, id 1: date: only spaces or bidi marks differ; expected "9:45 AM", got "9:45\u{202F}AM""#))
    #expect(lenient.stdoutText.hasSuffix("2 differences in 2 of 4 rows\n"), "\(lenient.stdoutText)")
    let strict = try BuiltBinary.run(["check", "--strict"] + Self.pinned + [Self.example, expected])
    #expect(strict.status == 1)
    #expect(strict.stdoutText.hasSuffix("4 differences in 4 of 4 rows\n"), "\(strict.stdoutText)")

    // The screen's dates from its golden file, with a plain space for U+202F.
    let dates = GoldenCase.messagesScreen.expected("date").map { $0.replacingOccurrences(of: "\u{202F}", with: " ") }
    let agreeing = try file(
      "[" + dates.map { #"{"date": "\#($0)"}"# }.joined(separator: ", ") + "]", in: directory, name: "by-position.json")
    let byPosition = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, agreeing])
    #expect(byPosition.status == 0, "\(byPosition.stdoutText)")
    #expect(
      byPosition.stdoutText == """
        row 1, id 1: date: only spaces or bidi marks differ; expected "9:45 AM", got "9:45\\u{202F}AM"
        4 rows agree (1 string differs only in spaces or bidi marks; --strict counts it)

        """)
  }

  @Test func aRowMissingFromEitherSideIsADifference() throws {
    let directory = try temporaryDirectory()
    let expected = try file(
      #"[{"id": 2, "title": "Jessica"}, {"id": 9, "title": "Nobody"}, {"id": 1}, {"id": 3}]"#, in: directory)
    let result = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, expected])
    #expect(result.status == 1)
    #expect(
      result.stdoutText == """
        row 2, id 9: missing from the payload's rows
        payload row 4, id 4: not in EXPECTED
        2 differences in 2 of 4 rows

        """)
  }

  /// A mock's values are the user's words: they reach the terminal quoted.
  @Test func valuesAreQuotedSafely() throws {
    let directory = try temporaryDirectory()
    let expected = try file(#"[{"id": 1, "title": "\u001b[2J\u202eAlex"}]"#, in: directory)
    let result = try BuiltBinary.run(
      ["check"] + Self.pinned + [Self.example, expected], environment: ["TERM": "xterm"])
    #expect(result.status == 1)
    #expect(!result.stdout.contains(0x1B))
    #expect(result.stdoutText.contains(#"expected "\u{1B}[2J\u{202E}Alex""#))
  }

  @Test func updateKeepsTheMocksKeysAndIsRefusedInCI() throws {
    let directory = try temporaryDirectory()
    let expected = try file(
      #"[{"id": 1, "date": "09:45 AM"}, {"id": 3, "title": "+33 6 45 67 66 66", "isUnread": true}]"#, in: directory)
    let refused = try BuiltBinary.run(
      ["check", "--update"] + Self.pinned + [Self.example, expected], environment: ["CI": "true"])
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("--update is refused when CI is set"))
    let updated = try BuiltBinary.run(["check", "--update"] + Self.pinned + [Self.example, expected])
    #expect(updated.status == 0, "\(updated.stderr)")
    // The rows EXPECTED had keep their keys; the payload's other rows get the keys every row had.
    #expect(
      try String(contentsOfFile: expected, encoding: .utf8) == """
        [
          {
            "id": 1,
            "date": "9:45\u{202F}AM"
          },
          {
            "id": 3,
            "title": "+33 6 45 67 99 66",
            "isUnread": false
          },
          {
            "id": 2
          },
          {
            "id": 4
          }
        ]

        """)
    let now = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, expected])
    #expect(now.status == 0, "\(now.stdoutText)")
  }

  @Test func theClockMustBeFrozen() throws {
    let directory = try temporaryDirectory()
    let expected = try file(#"[{"id": 1, "title": "Alexander Anderson"}]"#, in: directory)
    let running = try BuiltBinary.run(["check", Self.example, expected])
    #expect(running.status == 64)
    #expect(running.stderr.contains("check needs a frozen clock"))
    let epoch = try BuiltBinary.run(
      ["check", Self.example, expected], environment: ["SOURCE_DATE_EPOCH": "1643630400"])
    #expect(epoch.status == 1, "\(epoch.stderr)")
    #expect(epoch.stdoutText.hasSuffix("3 differences in 3 of 4 rows\n"), "\(epoch.stdoutText)")
  }

  @Test func badExpectedFilesGetTheirStatus() throws {
    let directory = try temporaryDirectory()
    for (text, status, message) in [
      (#"[{"id": 1, "colour": 2}]"#, Int32(65), #"row 1: unknown key "colour""#),
      (#"{"items": []}"#, 65, "not a JSON array of row objects"),
      (#"[{"id": 1}, {"title": "x"}]"#, 65, #"1 of 2 rows have an "id""#),
      (#"[{"id": 1}, {"id": 1}]"#, 65, "id 1 is on an earlier row too"),
    ] {
      let expected = try file(text, in: directory)
      let result = try BuiltBinary.run(["check"] + Self.pinned + [Self.example, expected])
      #expect(result.status == status, "\(text)")
      #expect(result.stderr.contains(message), "\(text): \(result.stderr)")
      #expect(result.stdout.isEmpty)
    }
    let missing = try BuiltBinary.run(
      ["check"] + Self.pinned + [Self.example, directory.appendingPathComponent("none.json").path])
    #expect(missing.status == 66)
    let bothStandardInput = try BuiltBinary.run(["check"] + Self.pinned + ["-", "-"])
    #expect(bothStandardInput.status == 64)
    #expect(bothStandardInput.stderr.contains("cannot both be standard input"))
  }

  @Test func theGoldenCasesPassWithAJUnitReport() throws {
    let directory = try temporaryDirectory()
    let report = directory.appendingPathComponent("report.xml").path
    let result = try BuiltBinary.run(
      ["check", "--cases", dataDirectory.appendingPathComponent("golden/cases").path, "--report", "junit", report])
    #expect(result.status == 0, "\(result.stdoutText)\(result.stderr)")
    let cases = try FileManager.default.contentsOfDirectory(
      atPath: dataDirectory.appendingPathComponent("golden/cases").path
    )
    .filter { !$0.hasSuffix(".expected.json") }.count
    #expect(result.stdoutText.hasSuffix("\(cases) passed, 0 failed\n"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.contains(#"<testsuite name="inbox-format check "#))
    #expect(xml.components(separatedBy: "<testcase ").count - 1 == cases)
    try expectValidJUnit(report)
  }

  @Test func aFailingCaseFailsTheRunAndItsReport() throws {
    let directory = try temporaryDirectory()
    _ = try file(
      #"{"input": "\#(Self.example)", "now": "2022-01-31T12:00:00Z", "locale": "en-US", "timeZone": "Europe/Paris"}"#,
      in: directory, name: "post.json")
    _ = try file(try String(contentsOfFile: Self.mock, encoding: .utf8), in: directory, name: "post.expected.json")
    _ = try file(#"{"input": "\#(Self.example)", "locale": "en-US"}"#, in: directory, name: "unfrozen.json")
    // Markup and a control character in a case's name, and so in its lines.
    _ = try file(#"{"input": "\#(Self.example)", "locale": "en-US"}"#, in: directory, name: "<b a=\"1\">&\u{1}.json")
    let report = directory.appendingPathComponent("report.xml").path
    let result = try BuiltBinary.run(["check", "--cases", directory.path, "--report", "junit", report])
    #expect(result.status == 1)
    // The post's mock differs in three of the four rows (its own test says where).
    #expect(result.stdoutText.contains(#"FAIL "post": "#) && result.stdoutText.contains(" in 3 of 4 rows"))
    #expect(result.stdoutText.contains(#"  row 3, id 3: title: expected "+33 6 45 67 66 66", got "+33 6 45 67 99 66""#))
    #expect(result.stdoutText.contains(#"FAIL "unfrozen": the case names no "now""#))
    #expect(result.stdoutText.hasSuffix("0 passed, 3 failed\n"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.contains(#"<testsuites tests="3" failures="3">"#))
    #expect(xml.contains(#"<failure message=""#) && xml.contains(#" differences in 3 of 4 rows">"#))
    #expect(xml.contains(#"name="&lt;b a=&quot;1&quot;&gt;&amp;\u{1}""#), "\(xml)")
    try expectValidJUnit(report)
  }

  /// Expects the report at `path` valid against the JUnit schema that
  /// Jenkins' xUnit plugin reads, which `Scripts/setup.sh` fetches.
  func expectValidJUnit(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let schema = dataDirectory.deletingLastPathComponent().appendingPathComponent(".build/schemas/junit-10.xsd").path
    try #require(
      FileManager.default.fileExists(atPath: schema), "no JUnit schema at \(schema): run Scripts/setup.sh",
      sourceLocation: sourceLocation)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xmllint", "--noout", "--schema", schema, path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(messages)", sourceLocation: sourceLocation)
  }
}
