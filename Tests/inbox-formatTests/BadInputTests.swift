import Foundation
import InboxFormat
import InboxFormatSupport
import Testing

/// Every kind of bad input, end to end through the built binary: refused
/// with status 65, one located line on standard error, nothing on standard
/// output, never a signal. And the valid oddities, which format.
@Suite struct BadInputTests {
  static let pinned = CommandLineTests.pinned
  static let valid = #"{"id":1,"update_date":"2022-01-31T08:45:33Z"}"#

  /// One message whose `key` holds `value` (as JSON text).
  static func message(_ key: String, _ value: String) -> String {
    #"[{"id":1,"update_date":"2022-01-31T08:45:33Z",\#(String(reflecting: key)):\#(value)}]"#
  }

  /// A bad input, and what its one line of standard error must say, in order.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var says: [String]

    init(_ name: String, _ text: String, _ says: String...) {
      self.init(name, Array(text.utf8), says)
    }

    init(_ name: String, _ bytes: [UInt8], _ says: [String]) {
      self.name = name
      self.bytes = bytes
      self.says = says
    }

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // Nothing there.
    Case("empty", "", "the input is empty; expected a JSON object"),
    Case("only whitespace", " \n\t\r\n ", "the input is empty"),
    Case("only a byte order mark", [0xEF, 0xBB, 0xBF], ["the input is empty"]),
    // Truncated documents.
    Case(
      "truncated object", #"{"items":[{"id":1,"#,
      "line 1, column 19: invalid JSON: unexpected end of input; expected a key"),
    Case(
      "truncated string", #"[{"id":1,"message":"abc"#, "line 1, column 24: invalid JSON: unexpected end of input",
      "to close the string"),
    Case(
      "truncated escape", #"[{"id":1,"message":"\u00"#,
      "unexpected end of input; expected 4 hexadecimal digits after \\u"),
    Case("truncated literal", #"[{"id":1,"x":tru"#, "unexpected end of input"),
    Case(
      "unclosed array", "[" + valid, "line 1, column 47: invalid JSON: unexpected end of input; expected \",\" or \"]\""
    ),
    // Trailing commas.
    Case(
      "trailing comma in an array", "[" + valid + ",]", "line 1, column 48: invalid JSON: trailing comma before \"]\""),
    Case(
      "trailing comma in an object", #"[{"id":1,"update_date":"2022-01-31T08:45:33Z",}]"#,
      "column 47: invalid JSON: trailing comma before \"}\""),
    // The wrong top-level shape.
    Case(
      "a number", "42", "line 1, column 1: top-level value: found a number; expected an object with an \"items\" array"),
    Case("a string", #"  "hello""#, "line 1, column 3: top-level value: found a string"),
    Case("null", "null", "top-level value: found null"),
    Case(
      "items not an array", #"{"items":{"id":1}}"#,
      "line 1, column 10: items: found an object; expected an object with an \"items\" array"),
    Case("a second items key", #"{"items":[],"items":[]}"#, "line 1, column 13: items: found a second \"items\" key"),
    Case(
      "an item that is not an object", #"{"items":[42]}"#,
      "line 1, column 11: items[0]: found a number; expected a message object"),
    // Missing required fields.
    Case(
      "missing id", #"[{"update_date":"2022-01-31T08:45:33Z"}]"#,
      "line 1, column 2: [0].id: missing required field \"id\"; expected an integer or a string"),
    Case(
      "null id", #"{"items":[{"id":null,"update_date":"2022-01-31T08:45:33Z"}]}"#,
      "items[0].id: missing required field \"id\""),
    Case(
      "missing update_date", #"[{"id":"c0ffee"}]"#,
      #"[0].update_date (id "c0ffee"): missing required field "update_date"; expected an RFC 3339 date-time string"#),
    // Wrong types, field by field.
    Case(
      "id a boolean", #"[{"id":true,"update_date":"2022-01-31T08:45:33Z"}]"#,
      "line 1, column 8: [0].id: found a boolean; expected an integer or a string"),
    Case(
      "id a fraction", #"[{"id":1.5,"update_date":"2022-01-31T08:45:33Z"}]"#,
      "[0].id: found a non-integer number; expected an integer or a string"),
    Case("id an object", #"[{"id":{"n":1},"update_date":"2022-01-31T08:45:33Z"}]"#, "[0].id: found an object"),
    Case(
      "firstname a number", message("firstname", "12"),
      "column 59: [0].firstname (id 1): found a number; expected a string"),
    Case("lastname a boolean", message("lastname", "false"), "[0].lastname (id 1): found a boolean; expected a string"),
    Case("message an array", message("message", #"["x"]"#), "[0].message (id 1): found an array; expected a string"),
    Case(
      "phone_number a string", message("phone_number", #""+33""#),
      "[0].phone_number (id 1): found a string; expected an object"),
    Case(
      "international a number", message("phone_number", #"{"international":33}"#),
      "[0].phone_number.international (id 1): found a number; expected a string"),
    Case(
      "update_date a number", #"[{"id":1,"update_date":1643618733}]"#,
      "[0].update_date (id 1): found a number; expected an RFC 3339 date-time string"),
    Case(
      "unread_count a string", message("unread_count", #""3""#),
      "[0].unread_count (id 1): found a string; expected an integer"),
    Case(
      "unread_count a fraction", message("unread_count", "1e3"),
      "[0].unread_count (id 1): found a non-integer number; expected an integer"),
    // Impossible dates.
    Case(
      "month 13", #"[{"id":7,"update_date":"2022-13-01T00:00:00Z"}]"#,
      #"column 24: [0].update_date (id 7): invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z""#
    ),
    Case("30 February", #"[{"id":7,"update_date":"2022-02-30T00:00:00Z"}]"#, "day 30 does not exist in February 2022"),
    Case("hour 25", #"[{"id":7,"update_date":"2022-01-31T25:00:00Z"}]"#, "hour 25 is out of range"),
    Case("no offset", #"[{"id":7,"update_date":"2022-01-31T08:45:33"}]"#, "missing time zone offset (Z or ±hh:mm)"),
    Case(
      "not a date at all", #"[{"id":7,"update_date":"yesterday"}]"#,
      #"invalid date "yesterday": expected a 4-digit year"#),
    // Bytes that are not text.
    Case(
      "invalid UTF-8 in a string", Array(#"[{"id":1,"firstname":"Zo"#.utf8) + [0xFF] + Array(#""}]"#.utf8),
      ["line 1, column 25: invalid JSON: invalid UTF-8: invalid byte 0xFF; expected valid UTF-8 text"]),
    Case(
      "an encoded surrogate", Array(#"[{"id":1,"x":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}]"#.utf8),
      ["invalid UTF-8: encoded surrogate 0xED 0xA0"]),
    Case(
      "invalid UTF-8 outside strings", [UInt8(ascii: "[")] + [0xC3, 0x28],
      ["line 1, column 2: invalid JSON: invalid UTF-8"]),
    Case(
      "a lone high surrogate", #"[{"id":1,"message":"a\ud83d b"}]"#,
      "line 1, column 22: invalid JSON: lone surrogate \\uD83D; expected a low surrogate escape"),
    Case(
      "a lone low surrogate", #"[{"id":1,"message":"\udc00"}]"#,
      "lone surrogate \\uDC00; expected a high surrogate escape"),
    Case(
      "a raw tab in a string", "[{\"id\":1,\"message\":\"a\tb\"}]",
      "line 1, column 22: invalid JSON: unescaped control character U+0009 in a string; expected an escape such as \"\\n\""
    ),
    Case(
      "a raw line break in a string", "[{\"id\":1,\"message\":\"a\nb\"}]",
      "unescaped control character U+000A in a string"),
    Case(
      "a NUL in a string", Array(#"[{"id":1,"x":""#.utf8) + [0] + Array(#""}]"#.utf8),
      ["column 15: invalid JSON: unescaped control character U+0000 in a string"]),
    Case(
      "a NUL outside strings", [UInt8(ascii: "[")] + [0] + [UInt8(ascii: "]")],
      [#"line 1, column 2: invalid JSON: unexpected character "\u{0}""#]),
    Case("only a NUL", [0], [#"unexpected character "\u{0}"; expected a JSON object or array"#]),
    // Numbers out of range.
    Case(
      "id above Int64", #"[{"id":9223372036854775808,"update_date":"2022-01-31T08:45:33Z"}]"#,
      "line 1, column 8: [0].id: number 9223372036854775808 is out of range; expected an integer between -9223372036854775808 and 9223372036854775807"
    ),
    Case(
      "unread_count below Int64", message("unread_count", "-9223372036854775809"),
      "[0].unread_count (id 1): number -9223372036854775809 is out of range"),
    Case("a leading zero", message("unread_count", "01"), "leading zeros are not allowed in numbers"),
    // More than one document.
    Case(
      "two arrays", "[]\n[]",
      "line 2, column 1: invalid JSON: trailing data after the JSON document; expected the end of the input"),
    Case(
      "two payloads", #"{"items":[]} {"items":[]}"#,
      "line 1, column 14: invalid JSON: trailing data after the JSON document"),
    Case(
      "trailing garbage", "[" + valid + "] x", "line 1, column 49: invalid JSON: trailing data after the JSON document"),
    // A bad line inside NDJSON: the line and its message's index are named, even when
    // reading only fails on the next.
    Case(
      "a line cut short in NDJSON", valid + "\n" + #"{"id":2,"# + "\n" + valid,
      "line 2, column 9: [1]: invalid JSON: unexpected end of line; expected the rest of the message on the same line"),
    Case(
      "a line that is not JSON in NDJSON", valid + "\noops\n" + valid,
      #"line 2, column 1: [1]: invalid JSON: unexpected character "o"; expected a message object"#),
    Case(
      "two messages on one NDJSON line", valid + " " + valid,
      #"line 1, column 47: [0]: invalid JSON: unexpected character "{"; expected a line break after the message"#),
    Case(
      "an invalid message in NDJSON", valid + "\n" + #"{"id":2}"#,
      #"line 2, column 1: [1].update_date (id 2): missing required field "update_date""#),
    // Nesting hundreds of thousands deep: an error, never a stack overflow.
    Case(
      "300,000 open brackets", String(repeating: "[", count: 300_000),
      "line 1, column 513: invalid JSON: nesting deeper than 512 levels; expected fewer nested arrays and objects"),
    Case(
      "300,000 nested objects in a field", #"{"items":[{"id":1,"x":"# + String(repeating: #"{"a":"#, count: 300_000),
      "nesting deeper than 512 levels"),
    Case(
      "300,000 nested arrays in an NDJSON line", #"{"id":1,"x":"# + String(repeating: "[", count: 300_000) + "\n",
      "line 1, column 524: [0]: invalid JSON: nesting deeper than 512 levels"),
    Case(
      "balanced deep nesting", "[" + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_001),
      "line 1, column 513: invalid JSON: nesting deeper than 512 levels"),
  ]

  @Test(arguments: cases)
  func isRefusedWithALocatedLine(_ bad: Case) throws {
    let result = try BuiltBinary.run(Self.pinned, stdin: Data(bad.bytes))
    expectRefused(result, saying: bad.says)
  }

  @Test func aHugeStringWithABadByteAtItsEndIsLocated() throws {
    // 300 MB of text, mostly ASCII, some of it wide, then a byte that is not UTF-8.
    let unit = "Hello, wörld – 你好 😀 this line is mostly plain ASCII text. "
    let repetitions = 300_000_000 / unit.utf8.count
    let prefix = #"[{"id":1,"update_date":"2022-01-31T08:45:33Z","message":""#
    var bytes = Array(prefix.utf8)
    bytes.reserveCapacity(300_000_100)
    let unitBytes = Array(unit.utf8)
    for _ in 0..<repetitions { bytes += unitBytes }
    bytes += [0xFF] + Array(#""}]"#.utf8)
    let file = try TemporaryFile(bytes)
    let result = try BuiltBinary.run(Self.pinned + [file.path])
    let column = prefix.count + unit.unicodeScalars.count * repetitions + 1
    expectRefused(
      result, saying: ["line 1, column \(column): invalid JSON: invalid UTF-8: invalid byte 0xFF"], input: file.path)
  }

  @Test func anInvalidMessageAfterTheHoldBackLimitLeavesTheArrayUnclosed() throws {
    // 120 MB of rows before the error: more than is held back, so some are
    // out already, but what was written cannot pass for a result.
    let row =
      #"{"id":1,"update_date":"2022-01-31T08:45:33Z","message":"\#(String(repeating: "0123456789", count: 1_000))"}"#
    let payload = "[" + Array(repeating: row, count: 12_000).joined(separator: ",") + #",{"id":2}]"#
    let file = try TemporaryFile(Array(payload.utf8))
    let result = try BuiltBinary.run(Self.pinned + [file.path])
    #expect(result.status == 65)
    #expect(!result.wasSignaled)
    #expect(
      result.stderr.hasSuffix(
        #"[12000].update_date (id 2): missing required field "update_date"; expected an RFC 3339 date-time string such as "2022-01-31T08:45:33Z""#
          + "\n"))
    #expect(result.stdout.starts(with: Array(#"[{"id":1,"#.utf8)))
    #expect(result.stdout.last != UInt8(ascii: "\n"))
    #expect((try? JSONSerialization.jsonObject(with: result.stdout)) == nil)
  }

  // MARK: Valid oddities

  static let oddities: [(String, String)] = [
    ("a byte order mark", "\u{FEFF}{\"items\":[\(valid)]}"),
    (
      "unknown keys anywhere",
      #"{"version":2,"items":[{"id":1,"x":{"y":[1,{"z":null}]},"update_date":"2022-01-31T08:45:33Z","phone_number":{"international":"+33","country":"FR"}}],"next":null}"#
    ),
    ("a bare array", "[\(valid)]"),
    ("NDJSON with blank lines and CRLF", "\n\(valid)\r\n\r\n\(valid)\n\n"),
    ("string ids", #"[{"id":"c0ffee","update_date":"2022-01-31T08:45:33Z"}]"#),
    ("offsets with fractions", #"[{"id":1,"update_date":"2022-01-31T14:15:33.123456789123+05:30"}]"#),
    ("lowercase separators and a space", #"[{"id":1,"update_date":"2022-01-31 08:45:33.5z"}]"#),
    ("a leap second", #"[{"id":1,"update_date":"2016-12-31T23:59:60Z"}]"#),
    (
      "escapes",
      #"[{"id":1,"firstname":"Zo\u00eb \ud83d\ude00","message":"a\/b\n\tc \"q\" \\","update_date":"2022-01-31T08:45:33Z"}]"#
    ),
    ("escaped keys", #"[{"\u0069d":1,"update\u005Fdate":"2022-01-31T08:45:33Z"}]"#),
    (
      "nulls for optional fields",
      #"[{"id":1,"firstname":null,"lastname":null,"message":null,"phone_number":null,"unread_count":null,"update_date":"2022-01-31T08:45:33Z"}]"#
    ),
    (
      "the extreme integers",
      #"[{"id":-9223372036854775808,"unread_count":9223372036854775807,"update_date":"2022-01-31T08:45:33Z"}]"#
    ),
    (
      "nesting up to the limit",
      #"[{"id":1,"update_date":"2022-01-31T08:45:33Z","x":\#(String(repeating: "[", count: 510))\#(String(repeating: "]", count: 510))}]"#
    ),
  ]

  @Test(arguments: oddities)
  func validOdditiesFormat(name: String, payload: String) throws {
    let result = try BuiltBinary.run(Self.pinned, stdin: Data(payload.utf8))
    #expect(result.status == 0, "\(name): \(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect((try? JSONSerialization.jsonObject(with: result.stdout)) is [[String: Any]])
  }

  @Test func oddValuesKeepTheirMeaning() throws {
    let escapes = try BuiltBinary.run(Self.pinned, stdin: Data(Self.oddities[8].1.utf8))
    let row = try #require((try JSONSerialization.jsonObject(with: escapes.stdout) as? [[String: Any]])?.first)
    #expect(row["title"] as? String == "Zoë 😀")
    #expect(row["message"] as? String == #"a/b c "q" \"#)
    let ids = try BuiltBinary.run(Self.pinned, stdin: Data(Self.oddities[4].1.utf8))
    #expect(ids.stdoutText.hasPrefix(#"[{"id":"c0ffee","#))
    let fraction = try BuiltBinary.run(Self.pinned, stdin: Data(Self.oddities[5].1.utf8))
    #expect(fraction.stdoutText.contains(#""date":"9:45\#u{202F}AM""#))
  }
}

/// The checks every refusal passes: status 65, not a signal, nothing on
/// standard output, and one line on standard error naming the input and
/// saying each of `says`, in order.
func expectRefused(
  _ result: BuiltBinary.Result, saying says: [String], input: String = "<stdin>",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(!result.wasSignaled, "ended by signal \(result.status)", sourceLocation: sourceLocation)
  #expect(result.status == 65, "\(result.stderr)", sourceLocation: sourceLocation)
  #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
  let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
  #expect(
    lines.count == 2 && lines[1].isEmpty, "not one line: \(result.stderr.debugDescription)",
    sourceLocation: sourceLocation)
  let line = lines.first.map(String.init) ?? ""
  let name = input == "<stdin>" ? input : quoted(bytes: Array(input.utf8))
  #expect(line.hasPrefix("inbox-format: \(name): "), "\(line)", sourceLocation: sourceLocation)
  var rest = line[...]
  for text in says {
    guard let found = rest.range(of: text) else {
      Issue.record("\(line.debugDescription) does not say \(text.debugDescription)", sourceLocation: sourceLocation)
      return
    }
    rest = rest[found.upperBound...]
  }
}

/// A file with the given bytes, removed when the value goes.
final class TemporaryFile {
  let path: String

  init(_ bytes: [UInt8], name: String = "input.json") throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  deinit {
    try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
  }
}
