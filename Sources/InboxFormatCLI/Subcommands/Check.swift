import ArgumentParser
import Foundation
import Glibc
import InboxFormat
import InboxFormatOptions
import InboxFormatSupport

extension InboxFormatCommand {
  /// `check`: a payload's rows against expected rows, for golden files and CI.
  struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Compare a payload's rows with expected rows: a golden file, or a designer's mock.",
      discussion: """
        EXPECTED is a JSON array of row objects with any of the row's keys: only those are \
        compared. Rows are matched by id when every expected row has one, else by position; \
        a row missing from either side is a difference. A string that differs only in the \
        spaces CLDR puts in labels (U+0020, U+00A0, U+202F) or in bidi marks is reported but \
        does not count unless --strict. The clock must be frozen: --now, SOURCE_DATE_EPOCH, or \
        a case's "now". \
        Exit status: 0 the rows agree, 1 they differ, 64 usage error, 65 bad payload or \
        EXPECTED, 66 a file cannot be opened, 74 I/O error.
        """
    )

    @Argument(help: "The payload file; standard input when '-'.")
    var payload: String?

    @Argument(help: "The expected rows: a JSON array of objects with any subset of the row's keys.")
    var expected: String?

    @OptionGroup var formatting: FormattingOptions

    @OptionGroup var reading: MappingOptions

    @Flag(help: "Count strings that differ only in spaces or bidi marks as differences.")
    var strict = false

    @Flag(
      help: ArgumentHelp(
        "Write the payload's rows to EXPECTED (each case's expected file with --cases), keeping only the keys it has.",
        discussion: "A new file gets every key the rows have. Refused when CI is set."))
    var update = false

    @Option(
      help: ArgumentHelp(
        "Check every case in a directory: each NAME.json names an input, a frozen now, a locale, a zone and options; its rows are expected in NAME.expected.json.",
        valueName: "dir"))
    var cases: String?

    @Option(
      parsing: .upToNextOption,
      help: ArgumentHelp("With --cases, also write a JUnit XML report of the cases.", valueName: "junit file"))
    var report: [String] = []

    func validate() throws {
      if cases != nil {
        guard payload == nil && expected == nil else {
          throw ValidationError("--cases takes no PAYLOAD or EXPECTED: each case names its own")
        }
      } else {
        guard payload != nil, expected != nil else {
          throw ValidationError("check needs PAYLOAD and EXPECTED, or --cases DIR")
        }
        guard payload != "-" || expected != "-" else {
          throw ValidationError("PAYLOAD and EXPECTED cannot both be standard input")
        }
        guard report.isEmpty else { throw ValidationError("--report applies to --cases") }
      }
      if !report.isEmpty {
        guard report.count == 2, report[0] == "junit" else {
          throw ValidationError("--report takes a format and a file: --report junit FILE")
        }
      }
    }

    func run() throws {
      let environment = ProcessEnvironment.current
      if update, let ci = environment["CI"], !ci.isEmpty {
        throw ValidationError(
          "--update is refused when CI is set: a CI run checks the expected rows, it does not record them")
      }
      let color = isatty(STDOUT_FILENO) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
      let lines = CheckReport(color: color)
      if let cases {
        try checkCases(in: cases, environment: environment)
        return
      }
      guard try formatting.frozenNow(environment: environment) != nil else {
        throw ValidationError(
          "check needs a frozen clock: give --now or set SOURCE_DATE_EPOCH (rows checked against the wall clock's time fail tomorrow)"
        )
      }
      let expectedFile = InputSource(path: expected)
      let outcome = try Self.check(
        payload: InputSource(path: payload), expected: expectedFile,
        context: formatting.context(environment: environment),
        defaultFields: formatting.rowFields(), mapping: reading.mapping(), strict: strict, update: update,
        lines: lines)
      var output = outcome.lines.map { $0 + "\n" }.joined()
      output += outcome.summary + "\n"
      try StandardOutput.write(Array(output.utf8))
      if outcome.failed { throw ExitCode(1) }
    }

    /// What checking one payload found.
    struct Outcome {
      var lines: [String]
      var summary: String
      var failed: Bool
    }

    /// Checks (or with `update`, records) the rows of `payload` against `expected`.
    static func check(
      payload: InputSource, expected: InputSource, context: FormattingContext, defaultFields: [RowField],
      mapping: InputMapping, strict: Bool, update: Bool, lines: CheckReport
    ) throws -> Outcome {
      let expectedRows = try readExpected(expected, missingIsEmpty: update)
      // The keys EXPECTED names are the fields the rows are made with.
      let fields = RowCheck.fields(comparingWith: expectedRows, otherwise: defaultFields)
      var bytes: [UInt8] = []
      try Rendering.format(
        payload, with: InboxFormatter(context: context.fields(fields), layout: .compact, mapping: mapping),
        skipping: nil
      ) { bytes += $0 }
      let actualRows = try JSONDecoder().decode([CheckedRow].self, from: Data(bytes))
      let check: RowCheck
      do {
        check = try RowCheck(expected: expectedRows, actual: actualRows)
      } catch {
        expected.report("\(expected.displayName): \(error.reason)")
        throw ExitStatus.badInput
      }
      if update {
        guard let file = expected.file else { throw ValidationError("--update needs EXPECTED to be a file") }
        let updated = check.updated(inOrderOf: defaultFields)
        do {
          try AtomicFile.replace(file, with: Array(RowCheck.json(updated).utf8))
        } catch {
          StandardError.write("inbox-format: \(error)")
          throw ExitStatus.ioError
        }
        return Outcome(lines: [], summary: "wrote \(updated.count) rows to \(expected.displayName)", failed: false)
      }
      let differences = check.differences
      let counted = differences.filter { $0.counts(strict: strict) }
      let rowsDiffering = Set(counted.map(\.row)).count
      let summary: String
      if counted.isEmpty {
        let notes = differences.count
        summary =
          "\(max(expectedRows.count, actualRows.count)) rows agree"
          + (notes == 0
            ? ""
            : notes == 1
              ? " (1 string differs only in spaces or bidi marks; --strict counts it)"
              : " (\(notes) strings differ only in spaces or bidi marks; --strict counts them)")
      } else {
        summary =
          "\(counted.count) \(counted.count == 1 ? "difference" : "differences") in \(rowsDiffering) of \(max(expectedRows.count, actualRows.count)) rows"
      }
      return Outcome(
        lines: differences.map { lines.line($0, strict: strict) }, summary: summary, failed: !counted.isEmpty)
    }

    /// The rows of EXPECTED. A file that cannot be opened exits 66 (with
    /// `missingIsEmpty`, one that does not exist is no rows); one that is
    /// not an array of row objects exits 65.
    static func readExpected(_ expected: InputSource, missingIsEmpty: Bool) throws -> [CheckedRow] {
      if missingIsEmpty, let file = expected.file, file.withCString({ access($0, F_OK) }) != 0, errno == ENOENT {
        return []
      }
      let bytes = try expected.readAll()
      do {
        return try RowCheck.expectedRows(decoding: bytes)
      } catch {
        expected.report("\(expected.displayName): \(error.reason)")
        throw ExitStatus.badInput
      }
    }

    // MARK: Cases

    /// A case of `--cases`: the shape of `Data/golden/cases`. Paths are
    /// relative to the case's file.
    struct Case: Decodable {
      var input: String
      var map: String?
      var viewer: String?
      /// The expected rows; `NAME.expected.json` beside the case when absent.
      var expected: String?
      var note: String?
      /// The case's formatting settings, under their query names
      /// (``FormattingSettings/Name``), as the command's options, so that
      /// its values are read and refused as the command's are. A number
      /// (`"previewLength": 30`) is given as its digits.
      var arguments: [String] = []

      private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
      }

      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        input = try container.decode(String.self, forKey: Key("input"))
        map = try container.decodeIfPresent(String.self, forKey: Key("map"))
        viewer = try container.decodeIfPresent(String.self, forKey: Key("viewer"))
        expected = try container.decodeIfPresent(String.self, forKey: Key("expected"))
        note = try container.decodeIfPresent(String.self, forKey: Key("note"))
        for setting in FormattingSettings.Name.allCases {
          let key = Key(setting.parameter)
          guard container.contains(key) else { continue }
          let value =
            if let number = try? container.decode(Int.self, forKey: key) {
              String(number)
            } else {
              try container.decode(String.self, forKey: key)
            }
          arguments += [setting.option, value]
        }
      }
    }

    /// What one case gave: its name, and its failure (nil when it passed).
    struct CaseResult {
      var name: String
      var failure: (summary: String, lines: [String])?
    }

    private func checkCases(in directory: String, environment: ProcessEnvironment) throws {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: directory)
          .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") }.sorted()
      } catch {
        StandardError.write("inbox-format: cannot open \(quoted(directory)): not a directory that can be read")
        throw ExitStatus.cannotOpenInput
      }
      var results: [CaseResult] = []
      var output = ""
      for file in names {
        let name = String(file.dropLast(".json".count))
        // Without colour: the lines go to the JUnit report too.
        let result = checkCase(named: name, in: directory, environment: environment, lines: CheckReport(color: false))
        results.append(result)
        if let failure = result.failure {
          output += "FAIL \(quoted(name)): \(failure.summary)\n" + failure.lines.map { "  \($0)\n" }.joined()
        } else {
          output += "pass \(quoted(name))\n"
        }
      }
      let failed = results.filter { $0.failure != nil }.count
      output += "\(results.count - failed) passed, \(failed) failed\n"
      try StandardOutput.write(Array(output.utf8))
      if report.count == 2 {
        let xml = JUnitReport.xml(results, suite: "inbox-format check \(directory)")
        do {
          try AtomicFile.replace(FileName(argument: report[1]), with: Array(xml.utf8))
        } catch {
          StandardError.write("inbox-format: \(error)")
          throw ExitStatus.ioError
        }
      }
      if failed > 0 { throw ExitCode(1) }
    }

    /// Checks one case; a case that cannot be read or run fails, saying why.
    private func checkCase(
      named name: String, in directory: String, environment: ProcessEnvironment, lines: CheckReport
    )
      -> CaseResult
    {
      let base = URL(fileURLWithPath: directory)
      func path(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : base.appendingPathComponent(relative).standardizedFileURL.path
      }
      let golden: Case
      do {
        golden = try JSONDecoder().decode(Case.self, from: Data(contentsOf: URL(fileURLWithPath: path("\(name).json"))))
      } catch {
        return CaseResult(name: name, failure: ("not a case: \(RowCheck.reason(error))", []))
      }
      do {
        let options = try FormattingOptions.parse(golden.arguments)
        let mappingOptions = try MappingOptions.parse(
          (golden.map.map { ["--map", $0] } ?? []) + (golden.viewer.map { ["--viewer", $0] } ?? []))
        guard try options.frozenNow(environment: environment) != nil else {
          return CaseResult(
            name: name, failure: ("the case names no \"now\": its rows would change with the wall clock", []))
        }
        let outcome = try Self.check(
          payload: InputSource(path: path(golden.input)),
          expected: InputSource(path: path(golden.expected ?? "\(name).expected.json")),
          context: options.context(environment: environment), defaultFields: options.rowFields(),
          mapping: mappingOptions.mapping(), strict: strict, update: update, lines: lines)
        return CaseResult(name: name, failure: outcome.failed ? (outcome.summary, outcome.lines) : nil)
      } catch let error as ExitCode {
        return CaseResult(name: name, failure: ("exit status \(error.rawValue): see the line above", []))
      } catch {
        return CaseResult(name: name, failure: (OneLine.safe(InboxFormatCommand.message(for: error)), []))
      }
    }
  }
}

/// The JUnit XML that CI systems read: one test case per check case.
enum JUnitReport {
  static func xml(_ results: [InboxFormatCommand.Check.CaseResult], suite: String) -> String {
    let failures = results.filter { $0.failure != nil }.count
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
    xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)">"# + "\n"
    xml +=
      #"  <testsuite name="\#(escaped(suite))" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="0">"#
      + "\n"
    for result in results {
      let name = escaped(result.name)
      guard let failure = result.failure else {
        xml += #"    <testcase classname="inbox-format.check" name="\#(name)"/>"# + "\n"
        continue
      }
      xml += #"    <testcase classname="inbox-format.check" name="\#(name)">"# + "\n"
      xml +=
        #"      <failure message="\#(escaped(failure.summary))">\#(escaped(failure.lines.joined(separator: "\n")))</failure>"#
        + "\n"
      xml += "    </testcase>\n"
    }
    return xml + "  </testsuite>\n</testsuites>\n"
  }

  /// Text as XML character data or an attribute value: markup escaped, and
  /// what XML 1.0 cannot hold (controls but tab and line feed, lone
  /// surrogates cannot occur in a String) spelled as `\u{…}`.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\n": result += "&#10;"
      case "\t": result.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
        appendHiddenEscaped(scalar, to: &result)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
