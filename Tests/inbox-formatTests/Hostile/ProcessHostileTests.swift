import Foundation
import Testing

/// The process's surroundings, one break each: the terminal width from
/// COLUMNS, standard streams that are closed or full, `--now` and
/// SOURCE_DATE_EPOCH, and values from outside quoted and cut in messages.
@Suite struct ProcessHostileTests {
  static let pinned = ["--now", Hostile.now, "--locale", "en-US", "--time-zone", "Europe/Paris"]

  static func run(
    _ arguments: [String], environment: [String: String] = [:], stdout: RawProcess.Stream = .pipe,
    stderr: RawProcess.Stream = .pipe
  ) throws -> RawProcess.Result {
    try RawProcess.run(arguments, environment: environment, stdout: stdout, stderr: stderr)
  }

  // MARK: COLUMNS

  /// The width the view takes: COLUMNS within 10…4096, else 80.
  @Test(arguments: [
    ("0", 80), ("-1", 80), ("9", 80), ("10", 10), ("11", 11), ("80", 80), ("4096", 4096), ("4097", 80),
    ("1000000000000", 80), ("99999999999999999999999", 80), ("garbage", 80), ("", 80), (" 40", 80), ("40 ", 80),
    ("0x40", 80), ("40.0", 80), ("4e1", 80), ("\u{0664}\u{0660}", 80), ("-9223372036854775808", 80),
  ])
  func columnsOutsideTheRangeAreIgnored(columns: String, width: Int) throws {
    let result = try Self.run(Self.pinned + ["--output", "text", Hostile.example], environment: ["COLUMNS": columns])
    expectNoSignal(result, "COLUMNS=\(columns.debugDescription)")
    #expect(result.exitStatus == 0 && result.stderr.isEmpty, "\(result)")
    // The example holds no wide character and no mark: a scalar is a column.
    let lines = result.stdoutText.split(separator: "\n")
    #expect(lines.count == 8)
    let widths = lines.map(\.unicodeScalars.count)
    #expect(widths.allSatisfy { $0 <= width }, "COLUMNS=\(columns.debugDescription): \(widths)")
    // The dates stand against the right edge, so the first row is as wide as the view.
    #expect(widths.first == width, "COLUMNS=\(columns.debugDescription): \(widths)")
  }

  /// A 50 MB preview, and a 50 MB name, are cut to what the view shows, fast.
  @Test(arguments: ["message", "firstname"])
  func aHugeFieldRendersFast(field: String) throws {
    let huge = String(repeating: "x", count: 50_000_000)
    let payload = #"{"items":[{"id":1,"firstname":"Big","\#(field)":"\#(huge)","update_date":"2022-01-31T08:45:33Z"}]}"#
    let file = try TemporaryFile(Array(payload.utf8))
    let result = try RawProcess.run(Self.pinned + ["--output", "text", file.path], timeout: .seconds(30))
    expectNoSignal(result)
    #expect(result.exitStatus == 0)
    #expect(result.stdout.count < 400, "\(result.stdout.count) bytes")
    #expect(result.stdoutText.split(separator: "\n").allSatisfy { $0.unicodeScalars.count <= 80 })
    #expect(result.elapsed < .seconds(5), "took \(result.elapsed)")
  }

  // MARK: Standard streams

  /// `2>&-` and a standard error whose reader is gone: the problem cannot be
  /// told, but the status still is, and no signal ends the process.
  @Test(arguments: [RawProcess.Stream.closed, .brokenPipe])
  func aClosedStandardErrorNeverKills(_ stderr: RawProcess.Stream) throws {
    let bad = try TemporaryFile(Array("[1]".utf8))
    let partly = try TemporaryFile(Array(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z"},{"id":2}]"#.utf8))
    let cases: [([String], Int32)] = [
      (Self.pinned + ["--time-zone", "Mars/Olympus", Hostile.example], 64),
      (Self.pinned + ["--bogus"], 64),
      (Self.pinned + [bad.path], 65),
      (Self.pinned + ["/nonexistent/in.json"], 66),
      (Self.pinned + ["--skip-invalid", partly.path], 3),
      (Self.pinned + [Hostile.example], 0),
      (["--help"], 0),
    ]
    for (arguments, status) in cases {
      let result = try Self.run(arguments, stderr: stderr)
      expectNoSignal(result, "\(arguments)")
      #expect(result.exitStatus == status, "\(arguments): \(result)")
    }
  }

  /// Help and the version are the output proper: a full disk or a closed
  /// standard output is an I/O error, 74, with one line.
  @Test(arguments: [["--help"], ["--version"], ["watch", "--help"], ["format", "--help"], ["help"]])
  func helpThatCannotBeWrittenIs74(arguments: [String]) throws {
    for stdout in [RawProcess.Stream.path("/dev/full"), .closed] {
      let result = try Self.run(arguments, stdout: stdout)
      expectNoSignal(result, "\(arguments)")
      #expect(result.exitStatus == 74, "\(arguments) to \(stdout): \(result)")
      let line = expectOneMessageLine(result, "\(arguments)")
      #expect(line.hasPrefix("inbox-format: cannot write the output: "), "\(line)")
    }
    // A reader that went away is success, as for rows.
    let gone = try Self.run(arguments, stdout: .brokenPipe)
    expectNoSignal(gone)
    #expect(gone.exitStatus == 0, "\(gone)")
  }

  // MARK: --now and SOURCE_DATE_EPOCH

  @Test(arguments: [
    "@0x10", "@1e9", "@.5", "@-.5", "@1.", "@+5", "@", "@-", "@--5", "@ 5", "@5 ", "@\u{0663}", "@１", "@99999999999999",
    "@-62135596801", "@253402300800", "@nan", "@inf", "@1_000", "2022-01-31T12:00:00Z ", "2022-01-31", "now", "",
    "2022-02-30T12:00:00Z", "\u{1B}[2J", String(repeating: "9", count: 5_000),
  ])
  func anInstantThatIsNotOneIsOneLine(now: String) throws {
    let result = try Self.run(["--now", now, "--locale", "en-US", "--time-zone", "UTC", Hostile.example])
    let line = expectUsageError(result, now.debugDescription)
    #expect(line.hasPrefix(#"inbox-format: --now ""#), "\(line)")
    #expect(line.count < 400, "\(line.count) characters")
  }

  @Test func fractionalEpochSecondsWork() throws {
    let rfc = try Self.run(Self.pinned + [Hostile.example])
    for now in ["@1643630400", "@1643630400.5", "@1643630400.000000001", "2022-01-31T13:00:00.25+01:00"] {
      let result = try Self.run(["--now", now, "--locale", "en-US", "--time-zone", "Europe/Paris", Hostile.example])
      expectRows(result, now)
      #expect(result.stdoutText == rfc.stdoutText, "\(now)")
    }
    for now in ["@-62135596800", "@253402300799.9", "@0", "@-0", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
      expectRows(try Self.run(["--now", now, "--locale", "en-US", "--time-zone", "UTC", Hostile.example]), now)
    }
  }

  @Test func sourceDateEpochIsAnIntegerOrOneLine() throws {
    let pinned = try Self.run(Self.pinned + [Hostile.example])
    let epoch = try Self.run(
      ["--locale", "en-US", "--time-zone", "Europe/Paris", Hostile.example],
      environment: ["SOURCE_DATE_EPOCH": "1643630400"])
    #expect(epoch.stdoutText == pinned.stdoutText)
    for value in [
      "@1643630400", "1643630400.5", "-1", "1e9", "0x10", " 1", "\u{1B}[2J", String(repeating: "7", count: 500),
    ] {
      let result = try Self.run(
        ["--locale", "en-US", "--time-zone", "UTC", Hostile.example], environment: ["SOURCE_DATE_EPOCH": value])
      let line = expectUsageError(result, value.debugDescription)
      #expect(line.hasPrefix(#"inbox-format: SOURCE_DATE_EPOCH=""#), "\(line)")
      #expect(line.count < 400)
    }
  }

  // MARK: Values quoted and cut

  /// A 5,000-digit number in the payload is cut after 60 characters.
  @Test func aHugeNumberIsCut() throws {
    let digits = String(repeating: "1", count: 5_000)
    let result = try RawProcess.run(
      Self.pinned, stdin: .pipe, feed: .bytes(Array(#"[{"id":\#(digits),"update_date":"2022-01-31T08:45:33Z"}]"#.utf8)))
    expectNoSignal(result)
    #expect(result.exitStatus == 65)
    let line = expectOneMessageLine(result)
    #expect(
      line
        == "inbox-format: <stdin>: line 1, column 8: [0].id: number \(String(repeating: "1", count: 60))… is out of range; expected an integer between -9223372036854775808 and 9223372036854775807"
    )
  }

  /// ArgumentParser's own messages, and the settings' (``FormattingSettings``),
  /// quote the user's words: escaped and cut.
  @Test(arguments: [
    (["--bogus\u{1B}[2J"], #"inbox-format: Unknown option '--bogus\u{1B}[2J'"#),
    (["--\u{202E}zzzzzzzzzz"], #"inbox-format: Unknown option '--\u{202E}zzzzzzzzzz'"#),
    (
      ["--preview-length", "\u{9B}31m"],
      #"inbox-format: --preview-length "\u{9B}31m" is not valid; expected an integer from 1 to 999999999"#
    ),
    (
      ["--preview-length", String(repeating: "9", count: 5_000)],
      "inbox-format: --preview-length \"\(String(repeating: "9", count: 60))…\" is not valid; expected an integer from 1 to 999999999"
    ),
    (
      ["--" + String(repeating: "a", count: 500)],
      "inbox-format: Unknown option '--\(String(repeating: "a", count: 58))…'"
    ),
    (
      ["--output", "\u{2028}"],
      #"inbox-format: The value '\u{2028}' is invalid for '--output <output>'. Please provide one of 'json', 'ndjson' or 'text'."#
    ),
    (["a.json", "b\u{7}.json"], #"inbox-format: Unexpected argument 'b\u{7}.json'"#),
  ])
  func argumentParserErrorsAreEscaped(arguments: [String], line expected: String) throws {
    let result = try Self.run(Self.pinned + arguments)
    let line = expectUsageError(result, "\(arguments)")
    #expect(line == expected)
  }

  /// A value that holds a quote is cut like any other: ArgumentParser's
  /// messages quote values with single quotes, which cannot be told from it.
  @Test func aValueWithAQuoteIsCutToo() throws {
    let result = try Self.run(Self.pinned + ["--x'" + String(repeating: "a", count: 500)])
    let line = expectUsageError(result)
    #expect(line.count < 200, "\(line.count) characters")
  }
}
