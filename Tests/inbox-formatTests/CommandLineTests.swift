import Foundation
import GoldenCases
import InboxFormat
import Testing

/// The built `inbox-format` binary, end to end: arguments, streams, exit statuses.
@Suite struct CommandLineTests {
  static let pinned = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]
  static let example = dataDirectory.appendingPathComponent("examples/messages.json").path

  func rows(_ result: BuiltBinary.Result) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
  }

  @Test func formatsTheExampleAsTheIssueSays() throws {
    let result = try BuiltBinary.run(Self.pinned + [Self.example])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    // The screen's rows as recorded in its golden file, on one line.
    #expect(result.stdoutText == GoldenCase.messagesScreen.expectedCompactJSON)
  }

  @Test func readsStandardInputWithoutAFileOrWithDash() throws {
    let payload = try Data(contentsOf: URL(fileURLWithPath: Self.example))
    let fromFile = try BuiltBinary.run(Self.pinned + [Self.example])
    let fromStdin = try BuiltBinary.run(Self.pinned, stdin: payload)
    let fromDash = try BuiltBinary.run(Self.pinned + ["-"], stdin: payload)
    #expect(fromStdin.status == 0)
    #expect(fromStdin.stdout == fromFile.stdout)
    #expect(fromDash.stdout == fromFile.stdout)
  }

  @Test func theSameRunTwiceGivesTheSameBytes() throws {
    let first = try BuiltBinary.run(Self.pinned + [Self.example])
    let second = try BuiltBinary.run(Self.pinned + [Self.example])
    #expect(first.stdout == second.stdout)
  }

  @Test func acceptsABareArrayAndNDJSON() throws {
    let array = #"[{"id":"a","firstname":"Zoë","update_date":"2022-01-31T10:00:00Z"}]"#
    let ndjson = """
      {"id":1,"firstname":"Ann","update_date":"2022-01-31T10:00:00Z"}

      {"id":2,"lastname":"Bee","update_date":"2022-01-30T10:00:00+01:00","unread_count":3}

      """
    let fromArray = try rows(try BuiltBinary.run(Self.pinned, stdin: Data(array.utf8)))
    #expect(fromArray.first?["id"] as? String == "a")
    #expect(fromArray.first?["initials"] as? String == "Z")
    let fromLines = try rows(try BuiltBinary.run(Self.pinned, stdin: Data(ndjson.utf8)))
    #expect(fromLines.map { $0["title"] as? String } == ["Ann", "Bee"])
    #expect(fromLines.map { $0["date"] as? String } == ["11:00\u{202F}AM", "Yesterday"])
  }

  @Test func ndjsonOutputAndPrettyOutput() throws {
    let ndjson = try BuiltBinary.run(Self.pinned + ["--output", "ndjson", Self.example])
    let lines = ndjson.stdoutText.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.allSatisfy { $0.hasPrefix("{\"id\":") && $0.hasSuffix("}") })
    let pretty = try BuiltBinary.run(Self.pinned + ["--pretty", Self.example])
    #expect(pretty.stdoutText.hasPrefix("[\n  {\n    \"id\": 1,\n    \"initials\": \"AA\",\n"))
    #expect(try rows(pretty).count == 4)
  }

  @Test func optionsChangeTheLabels() throws {
    let french = try rows(
      try BuiltBinary.run(
        ["--now", "2022-01-31T12:00:00Z", "--locale", "fr_FR.UTF-8", "--time-zone", "Europe/Paris", Self.example]))
    let bcp47 = try rows(
      try BuiltBinary.run(
        ["--now", "2022-01-31T12:00:00Z", "--locale", "fr-FR", "--time-zone", "Europe/Paris", Self.example]))
    #expect(french.map { $0["date"] as? String } == bcp47.map { $0["date"] as? String })
    #expect(french.first?["date"] as? String == "09:45" && french[1]["date"] as? String == "Hier")
    let twentyFour = try rows(try BuiltBinary.run(Self.pinned + ["--hour-cycle", "24", Self.example]))
    #expect(twentyFour.first?["date"] as? String == "09:45")
    let cut = try rows(try BuiltBinary.run(Self.pinned + ["--preview-length", "10", Self.example]))
    #expect(cut.last?["message"] as? String == "This a ve…")
    let epoch = try BuiltBinary.run([
      "--now", "@1643630400", "--locale", "en-US", "--time-zone", "Europe/Paris", Self.example,
    ])
    #expect(epoch.stdout == (try BuiltBinary.run(Self.pinned + [Self.example])).stdout)
  }

  @Test func defaultsComeFromTheEnvironment() throws {
    let environment = ["SOURCE_DATE_EPOCH": "1643630400", "LANG": "de_DE.UTF-8", "TZ": "Europe/Berlin"]
    let result = try BuiltBinary.run([Self.example], environment: environment)
    #expect(result.status == 0)
    let named = try BuiltBinary.run([
      "--now", "@1643630400", "--locale", "de-DE", "--time-zone", "Europe/Berlin", Self.example,
    ])
    #expect(result.stdout == named.stdout)
    #expect(try rows(result)[1]["date"] as? String == "Gestern")
    // LC_ALL wins over LC_TIME, which wins over LANG.
    let french = try BuiltBinary.run(
      [Self.example], environment: environment.merging(["LC_ALL": "fr_FR.UTF-8", "LC_TIME": "ja_JP"]) { $1 })
    #expect(try rows(french)[1]["date"] as? String == "Hier")
    let japanese = try BuiltBinary.run([Self.example], environment: environment.merging(["LC_TIME": "ja_JP"]) { $1 })
    #expect(try rows(japanese)[1]["date"] as? String == "昨日")
  }

  @Test(arguments: [
    (["--time-zone", "Mars/Olympus_Mons"], "--time-zone"),
    (["--locale", "zz-ZZ"], "--locale"),
    (["--now", "2022-13-01T00:00:00Z"], "month 13"),
    (["--now", "yesterday"], "--now"),
    (["--hour-cycle", "13"], "hour-cycle"),
    (["--preview-length", "0"], "--preview-length"),
    (["--output", "xml"], "output"),
    (["--output", "ndjson", "--pretty"], "--pretty"),
    (["--no-such-option"], "no-such-option"),
  ])
  func usageErrorsExit64(arguments: [String], mention: String) throws {
    let result = try BuiltBinary.run(Self.pinned + arguments + [Self.example])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(mention))
  }

  @Test func unknownTZFromTheEnvironmentIsAUsageError() throws {
    let result = try BuiltBinary.run(
      ["--now", "@0", "--locale", "en-US", Self.example], environment: ["TZ": "Nowhere/Nothing"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("TZ"))
  }

  @Test func aMissingFileExits66() throws {
    let result = try BuiltBinary.run(Self.pinned + ["/nonexistent/messages.json"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("/nonexistent/messages.json"))
    #expect(result.stdout.isEmpty)
    let directory = try BuiltBinary.run(Self.pinned + [dataDirectory.path])
    #expect(directory.status == 66)
  }

  @Test func badInputExits65WithALocatedMessageAndNoOutput() throws {
    let payload = """
      {"items": [
        {"id": 1, "update_date": "2022-01-31T08:45:33Z"},
        {"id": 7, "update_date": "2022-13-01T00:00:00Z"}
      ]}
      """
    let result = try BuiltBinary.run(Self.pinned, stdin: Data(payload.utf8))
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(result.stderr.contains("items[1].update_date"))
    #expect(result.stderr.contains("id 7"))
    #expect(result.stderr.contains("line 3"))
    #expect(result.stderr.contains("month 13"))
  }

  @Test func syntaxErrorsNameTheLineAndColumn() throws {
    let result = try BuiltBinary.run(Self.pinned, stdin: Data("{\"items\": [\n  {\"id\": 1,, }\n]}".utf8))
    #expect(result.status == 65)
    #expect(result.stderr.contains("line 2, column 12"))
    #expect(result.stdout.isEmpty)
  }

  @Test func emptyInputIsBadInput() throws {
    let result = try BuiltBinary.run(Self.pinned, stdin: Data())
    #expect(result.status == 65)
    #expect(result.stderr.contains("empty"))
  }

  @Test func helpDocumentsTheExitStatuses() throws {
    let result = try BuiltBinary.run(["--help"])
    #expect(result.status == 0)
    #expect(result.stdoutText.contains("65 bad input data"))
    let format = try BuiltBinary.run(["format", "--help"])
    #expect(format.stdoutText.contains("--time-zone"))
  }

  /// The example payload's rows at 2022-01-31 13:00 Paris, en-US, through the library.
  var exampleRows: [MessageUIModel] {
    get throws {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.example)))
      let context = FormattingContext(
        now: try Date("2022-01-31T12:00:00Z", strategy: .iso8601), locale: Locale(identifier: "en-US"),
        timeZone: TimeZone(identifier: "Europe/Paris")!)
      return MessageMapper(context: context).map(try InboxDecoder().decode(bytes))
    }
  }

  @Test func formatWritesTheViewWithOutputText() throws {
    let result = try BuiltBinary.run(
      [
        "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris", "--output", "text",
        dataDirectory.appendingPathComponent("examples/messages.json").path,
      ],
      environment: ["COLUMNS": "50"])
    #expect(result.status == 0)
    #expect(
      result.stdoutText
        == String(decoding: InboxEncoder(layout: .text(width: 50)).encode(try exampleRows), as: UTF8.self))
    let pretty = try BuiltBinary.run(["--output", "text", "--pretty"])
    #expect(pretty.status == 64)
  }
}
