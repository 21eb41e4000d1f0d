import Foundation
import InboxFormatSupport
import Testing

@testable import InboxFormat

@Suite struct DecodingErrorTests {
  typealias Fixture = DecodingFixture

  // MARK: Item-level errors

  static let prettyPrinted = """
    {
      "items": [
        {"id": 1, "firstname": "Zoë", "update_date": "2022-01-31T08:45:33Z"},
        {"id": 2, "update_date": "2022-01-30T08:45:33Z"},
        {"id": 3, "update_date": "2022-01-29T08:45:33Z"},
        {"id": 4, "firstname": "Émile", "update_date": "2022-13-01T00:00:00Z"}
      ]
    }
    """

  @Test func badDateInTheFourthItemOfAPrettyPrintedFile() throws {
    let error = try #require(Fixture.error(decoding: Self.prettyPrinted))
    let item = ItemReference(
      path: "items[3]", index: 3, id: .integer(4), location: InputLocation(line: 6, column: 5, byteOffset: 202))
    let value = InputLocation(line: 6, column: 52, byteOffset: 250)
    #expect(
      error
        == .invalidDate(item: item, value: "2022-13-01T00:00:00Z", reason: "month 13 is out of range", location: value))
    // The same positions, computed independently.
    #expect(item.location == Fixture.location(of: "{\"id\": 4", in: Self.prettyPrinted))
    #expect(value == Fixture.location(of: "\"2022-13", in: Self.prettyPrinted))
    #expect(
      error.description
        == #"line 6, column 52: items[3].update_date (id 4): invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z""#
    )
  }

  @Test func missingIDPointsAtTheItem() throws {
    let json = "[\(Fixture.message(id: "1")),\n {\"update_date\":\"2022-01-31T08:45:33Z\"}]"
    let error = try #require(Fixture.error(decoding: json))
    let item = ItemReference(
      path: "[1]", index: 1, id: nil, location: InputLocation(line: 2, column: 2, byteOffset: json.utf8.count - 39))
    #expect(error == .missingField(item: item, field: "id"))
    #expect(item.location == Fixture.location(of: "{\"update", in: json))
  }

  @Test func nullIDAndNullDateAreMissing() throws {
    let nullID = #"{"items":[{"id":null,"update_date":"2022-01-31T08:45:33Z"}]}"#
    #expect(
      Fixture.error(decoding: nullID)
        == .missingField(
          item: ItemReference(path: "items[0]", index: 0, id: nil, location: Fixture.location(of: "{\"id", in: nullID)),
          field: "id"))
    let nullDate = #"{"items":[{"id":"a","update_date":null}]}"#
    #expect(
      Fixture.error(decoding: nullDate)
        == .missingField(
          item: ItemReference(
            path: "items[0]", index: 0, id: .string("a"), location: Fixture.location(of: "{\"id", in: nullDate)),
          field: "update_date"))
  }

  @Test func missingDateNamesTheID() throws {
    let error = try #require(Fixture.error(decoding: #"[{"id":"c0ffee"}]"#))
    #expect(
      error.description
        == #"line 1, column 2: [0].update_date (id "c0ffee"): missing required field "update_date"; expected an RFC 3339 date-time string such as "2022-01-31T08:45:33Z""#
    )
  }

  /// One message whose field `key` holds `value`, and the error expected.
  static func mismatch(_ key: String, _ value: String) -> (json: String, location: InputLocation) {
    let json = "[{\"id\":9,\"update_date\":\"2022-01-31T08:45:33Z\",\n  \"\(key)\": \(value)}]"
    return (
      json,
      InputLocation(line: 2, column: 7 + key.unicodeScalars.count, byteOffset: json.utf8.count - value.utf8.count - 2)
    )
  }

  @Test(arguments: [
    ("firstname", "12", "firstname", "a string", "a number"),
    ("lastname", "true", "lastname", "a string", "a boolean"),
    ("message", "[\"x\"]", "message", "a string", "an array"),
    ("phone_number", "\"+33\"", "phone_number", "an object", "a string"),
    ("unread_count", "\"3\"", "unread_count", "an integer", "a string"),
    ("unread_count", "1.5", "unread_count", "an integer", "a non-integer number"),
    ("unread_count", "1e3", "unread_count", "an integer", "a non-integer number"),
    ("unread_count", "-0.0", "unread_count", "an integer", "a non-integer number"),
    ("update_date", "1643618733", "update_date", "an RFC 3339 date-time string", "a number"),
    ("update_date", "{}", "update_date", "an RFC 3339 date-time string", "an object"),
  ])
  func wrongTypeNamesFieldAndValue(key: String, value: String, field: String, expected: String, found: String) throws {
    let (json, location) = Self.mismatch(key, value)
    let error = try #require(Fixture.error(decoding: json))
    let item = ItemReference(
      path: "[0]", index: 0, id: .integer(9), location: InputLocation(line: 1, column: 2, byteOffset: 1))
    #expect(error == .typeMismatch(item: item, field: field, expected: expected, found: found, location: location))
    #expect(location == Fixture.location(of: value, in: json))
  }

  @Test func wrongIDTypeLeavesTheReferenceWithoutID() throws {
    for (value, found) in [("true", "a boolean"), ("1.0", "a non-integer number"), ("{\"n\":1}", "an object")] {
      let json = #"[{"update_date":"2022-01-31T08:45:33Z","id":\#(value)}]"#
      let item = ItemReference(
        path: "[0]", index: 0, id: nil, location: InputLocation(line: 1, column: 2, byteOffset: 1))
      #expect(
        Fixture.error(decoding: json)
          == .typeMismatch(
            item: item, field: "id", expected: "an integer or a string", found: found,
            location: Fixture.location(of: value, in: json)))
    }
  }

  @Test func nestedFieldPath() throws {
    let json = #"{"items":[{"id":"x","phone_number":{"international":33},"update_date":"2022-01-31T08:45:33Z"}]}"#
    let error = try #require(Fixture.error(decoding: json))
    let item = ItemReference(
      path: "items[0]", index: 0, id: .string("x"), location: Fixture.location(of: "{\"id", in: json))
    #expect(
      error
        == .typeMismatch(
          item: item, field: "phone_number.international", expected: "a string", found: "a number",
          location: Fixture.location(of: "33}", in: json)))
    #expect(
      error.description.hasPrefix(
        #"line 1, column 53: items[0].phone_number.international (id "x"): found a number; expected a string"#))
  }

  @Test func integersOutOfRange() throws {
    let big = #"[{"id":9223372036854775808,"update_date":"2022-01-31T08:45:33Z"}]"#
    #expect(
      Fixture.error(decoding: big)
        == .numberOutOfRange(
          item: ItemReference(
            path: "[0]", index: 0, id: nil, location: InputLocation(line: 1, column: 2, byteOffset: 1)), field: "id",
          value: "9223372036854775808", location: InputLocation(line: 1, column: 8, byteOffset: 7)))
    let small = #"[{"id":1,"unread_count":-9223372036854775809,"update_date":"2022-01-31T08:45:33Z"}]"#
    #expect(
      Fixture.error(decoding: small)
        == .numberOutOfRange(
          item: ItemReference(
            path: "[0]", index: 0, id: .integer(1), location: InputLocation(line: 1, column: 2, byteOffset: 1)),
          field: "unread_count", value: "-9223372036854775809", location: Fixture.location(of: "-92", in: small)))
    let huge = #"[{"id":1,"unread_count":123456789012345678901234567890,"update_date":"2022-01-31T08:45:33Z"}]"#
    guard case .numberOutOfRange(_, "unread_count", "123456789012345678901234567890", _) = Fixture.error(decoding: huge)
    else {
      Issue.record("expected numberOutOfRange")
      return
    }
  }

  @Test func itemThatIsNotAnObject() throws {
    let json = #"{"items":[\#(Fixture.message(id: "1")),\#(Fixture.message(id: "2")),"hello"]}"#
    let error = try #require(Fixture.error(decoding: json))
    let location = Fixture.location(of: "\"hello", in: json)
    let item = ItemReference(path: "items[2]", index: 2, id: nil, location: location)
    #expect(
      error == .typeMismatch(item: item, field: "", expected: "a message object", found: "a string", location: location)
    )
    #expect(
      error.description == "line 1, column \(location.column): items[2]: found a string; expected a message object")
  }

  @Test func firstProblemWinsInsideAMessage() throws {
    // A type error comes before a missing field, and earlier values first.
    let json = #"[{"lastname":1,"firstname":2}]"#
    guard case .typeMismatch(_, "lastname", _, _, _) = Fixture.error(decoding: json) else {
      Issue.record("expected the lastname mismatch")
      return
    }
  }

  // MARK: Shape errors

  @Test func itemsMustBeAnArray() {
    let json = #"{"items":{"id":1}}"#
    #expect(
      Fixture.error(decoding: json)
        == .unexpectedShape(
          path: "items", found: "an object", location: InputLocation(line: 1, column: 10, byteOffset: 9)))
  }

  @Test func itemsHoldingNoValueIsASyntaxError() throws {
    let syntax = try #require(Self.syntax(#"{"items": x}"#))
    #expect(syntax.reason == "unexpected character \"x\"")
    #expect(syntax.expected == "an array of messages")
  }

  @Test func topLevelScalarIsNotAPayload() {
    #expect(
      Fixture.error(decoding: "\n  \"hello\"")
        == .unexpectedShape(
          path: "top-level value", found: "a string", location: InputLocation(line: 2, column: 3, byteOffset: 3)))
    #expect(
      Fixture.error(decoding: "42")
        == .unexpectedShape(
          path: "top-level value", found: "a number", location: InputLocation(line: 1, column: 1, byteOffset: 0)))
  }

  @Test func aSecondItemsArrayIsRejected() {
    let json = #"{"items":[],"items":[]}"#
    #expect(
      Fixture.error(decoding: json)
        == .unexpectedShape(
          path: "items", found: "a second \"items\" key", location: InputLocation(line: 1, column: 13, byteOffset: 12)))
  }

  // MARK: Syntax errors

  /// The syntax error in `json`, or in its only line when that line could
  /// be NDJSON (as `{` could).
  static func syntax(_ json: String) -> (reason: String, expected: String, location: InputLocation)? {
    syntax(Array(json.utf8))
  }

  static func syntax(_ bytes: [UInt8]) -> (reason: String, expected: String, location: InputLocation)? {
    switch Fixture.error(decoding: bytes) {
    case .syntax(let reason, let expected, let location)?, .brokenLine(0, let reason, let expected, let location)?:
      (reason, expected, location)
    default: nil
    }
  }

  @Test(arguments: [
    #"{"items":[{"id":1,"#,
    #"{"items":[{"id":1,"update_date":"2022-01-31T08:4"#,
    #"{"items":["#,
    #"{"items":[{"id":1,"update_date":"2022-01-31T08:45:33Z"}]"#,
    #"[{"id":1,"update_date":"2022-01-31T08:45:33Z","x":[[{"a":tr"#,
    #"[{"id":1,"message":"\u00"#,
    #"[{"id":1,"message":"\"#,
    #"[{"id":-"#,
    "[",
    "{",
  ])
  func truncatedInputEndsUnexpectedly(json: String) throws {
    let syntax = try #require(Self.syntax(json))
    #expect(syntax.reason == "unexpected end of input")
    #expect(syntax.location == Fixture.endLocation(of: json))
  }

  @Test func truncatedPrettyPrintedFilePointsAtTheEnd() throws {
    // Cut after the third item's comma.
    let json = Self.prettyPrinted.split(separator: "\n").prefix(5).joined(separator: "\n")
    let syntax = try #require(Self.syntax(json))
    #expect(syntax.reason == "unexpected end of input")
    #expect(syntax.expected == "a message object")
    #expect(syntax.location == InputLocation(line: 5, column: 54, byteOffset: 197))
  }

  @Test func trailingCommas() throws {
    let inObject = try #require(Self.syntax(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z",}]"#))
    #expect(inObject.reason == "trailing comma before \"}\"")
    #expect(inObject.location.column == 47)
    let inArray = try #require(Self.syntax("[\(Fixture.message(id: "1")), ]"))
    #expect(inArray.reason == "trailing comma before \"]\"")
    let inSkipped = try #require(Self.syntax(#"[{"id":1,"x":[1,2,],"update_date":"2022-01-31T08:45:33Z"}]"#))
    #expect(inSkipped.reason == "trailing comma before \"]\"")
    #expect(inSkipped.location.byteOffset == 18)
    let inPayload = try #require(Self.syntax(#"{"items":[],}"#))
    #expect(inPayload.reason == "trailing comma before \"}\"")
  }

  @Test func trailingGarbageAndTwoDocuments() throws {
    let garbage = try #require(Self.syntax("[\(Fixture.message(id: "1"))] x"))
    #expect(garbage.reason == "trailing data after the JSON document")
    #expect(garbage.expected == "the end of the input")
    let twoPayloads = #"{"items":[]}"# + "\n" + #"{"items":[]}"#
    let second = try #require(Self.syntax(twoPayloads))
    #expect(second.reason == "trailing data after the JSON document")
    #expect(second.location == InputLocation(line: 2, column: 1, byteOffset: 13))
    let twoArrays = try #require(Self.syntax("[]\n[]"))
    #expect(twoArrays.location == InputLocation(line: 2, column: 1, byteOffset: 3))
  }

  @Test func invalidUTF8IsLocatedAtTheBadByte() throws {
    // "Zoë " is 4 scalars but 5 bytes: the column counts scalars.
    let prefix = Array(#"[{"id":1,"firstname":"Zoë "#.utf8)
    let suffix = Array(#"","update_date":"2022-01-31T08:45:33Z"}]"#.utf8)
    let cases: [([UInt8], String)] = [
      ([0xC3, 0x28], "invalid UTF-8: truncated sequence 0xC3"),
      ([0xE2, 0x82], "invalid UTF-8: truncated sequence 0xE2 0x82"),
      ([0xC0, 0xAF], "invalid UTF-8: overlong encoding 0xC0 0xAF"),
      ([0xE0, 0x80, 0xAF], "invalid UTF-8: overlong encoding 0xE0 0x80"),
      ([0xF0, 0x80, 0x80, 0xAF], "invalid UTF-8: overlong encoding 0xF0 0x80"),
      ([0xED, 0xA0, 0x80], "invalid UTF-8: encoded surrogate 0xED 0xA0"),
      ([0xF4, 0x90, 0x80, 0x80], "invalid UTF-8: code point above U+10FFFF 0xF4 0x90"),
      ([0x80], "invalid UTF-8: unexpected continuation byte 0x80"),
      ([0xFF], "invalid UTF-8: invalid byte 0xFF"),
      ([0xF8, 0x88, 0x80, 0x80, 0x80], "invalid UTF-8: invalid byte 0xF8"),
    ]
    for (bad, reason) in cases {
      let syntax = try #require(Self.syntax(prefix + bad + suffix))
      #expect(syntax.reason == reason)
      #expect(syntax.expected == "valid UTF-8 text")
      #expect(syntax.location == InputLocation(line: 1, column: 27, byteOffset: prefix.count))
    }
  }

  @Test func invalidUTF8InSkippedValuesKeysAndOutsideStrings() throws {
    let inSkipped = Array(#"[{"id":1,"x":["a"#.utf8) + [0xFE] + Array(#""]}]"#.utf8)
    #expect(try #require(Self.syntax(inSkipped)).reason == "invalid UTF-8: invalid byte 0xFE")
    let inKey = Array(#"[{"id":1,""#.utf8) + [0xC1, 0x81] + Array(#"":1}]"#.utf8)
    #expect(try #require(Self.syntax(inKey)).location.byteOffset == 10)
    let outside = Array("[".utf8) + [0xC3]
    #expect(try #require(Self.syntax(outside)).reason == "unexpected end of input")
    let strayScalar = Array("[é]".utf8)
    #expect(try #require(Self.syntax(strayScalar)).reason == "unexpected character \"é\"")
  }

  @Test func loneSurrogateEscapes() throws {
    let high = try #require(Self.syntax(#"[{"id":1,"message":"a\ud83d b"}]"#))
    #expect(high.reason == #"lone surrogate \uD83D"#)
    #expect(high.location.byteOffset == 21)
    let low = try #require(Self.syntax(#"[{"id":1,"message":"\uDE00"}]"#))
    #expect(low.reason == #"lone surrogate \uDE00"#)
    let highThenHigh = try #require(Self.syntax(#"[{"id":1,"message":"\ud83d\ud83d"}]"#))
    #expect(highThenHigh.reason == #"lone surrogate \uD83D"#)
    let inSkipped = try #require(Self.syntax(#"[{"id":1,"x":"\udc00"}]"#))
    #expect(inSkipped.reason == #"lone surrogate \uDC00"#)
  }

  @Test func rawControlCharactersAndNUL() throws {
    let tab = try #require(Self.syntax("[{\"id\":1,\"message\":\"a\tb\"}]"))
    #expect(tab.reason == "unescaped control character U+0009 in a string")
    #expect(tab.location == InputLocation(line: 1, column: 22, byteOffset: 21))
    let newline = try #require(Self.syntax("[{\"id\":1,\"message\":\"a\nb\"}]"))
    #expect(newline.reason == "unescaped control character U+000A in a string")
    let nul = try #require(Self.syntax(Array("[{\"id\":1,\"x\":\"".utf8) + [0] + Array("\"}]".utf8)))
    #expect(nul.reason == "unescaped control character U+0000 in a string")
    #expect(nul.location.byteOffset == 14)
    let nulOutside = try #require(Self.syntax(Array("[".utf8) + [0] + Array("]".utf8)))
    #expect(nulOutside.reason == #"unexpected character "\u{0}""#)
    #expect(nulOutside.location.byteOffset == 1)
  }

  @Test(arguments: [
    ("01", "leading zeros are not allowed in numbers"),
    ("-01", "leading zeros are not allowed in numbers"),
    ("+1", #"unexpected character "+""#),
    (".5", #"unexpected character ".""#),
    ("1.", #"unexpected character "}""#),
    ("1.e5", #"unexpected character "e""#),
    ("1e", #"unexpected character "}""#),
    ("1e+", #"unexpected character "}""#),
    ("-", #"unexpected character "}""#),
    ("NaN", #"unexpected character "N""#),
    ("Infinity", #"unexpected character "I""#),
    ("0x10", #"unexpected character "x""#),
    ("tru", #"unexpected character "}""#),
    ("nul", #"unexpected character "}""#),
    ("True", #"unexpected character "T""#),
    ("'x'", #"unexpected character "'""#),
    ("\"\\x\"", #"invalid escape "\\x""#),
    ("\"\\u12G4\"", #"invalid \u escape: "G""#),
  ])
  func strictValues(value: String, reason: String) throws {
    // In a field that is read and in one that is skipped.
    for key in ["unread_count", "unknown"] {
      let syntax = try #require(Self.syntax(#"[{"id":1,"\#(key)":\#(value)}]"#), "\(key): \(value)")
      #expect(syntax.reason == reason, "\(key): \(value)")
    }
  }

  @Test func commentsAreNotJSON() throws {
    let syntax = try #require(Self.syntax("[ // messages\n]"))
    #expect(syntax.reason == #"unexpected character "/""#)
    #expect(syntax.location == InputLocation(line: 1, column: 3, byteOffset: 2))
  }

  @Test func missingColonOrComma() throws {
    #expect(try #require(Self.syntax(#"[{"id" 1}]"#)).expected == "\":\" after the key")
    #expect(try #require(Self.syntax(#"[{"id":1 "x":2}]"#)).expected == "\",\" or \"}\"")
    let twoMessages = "[" + Fixture.message(id: "1") + Fixture.message(id: "2") + "]"
    #expect(try #require(Self.syntax(twoMessages)).expected == "\",\" or \"]\"")
    #expect(try #require(Self.syntax(#"[{1:2}]"#)).expected == "a key (a string in double quotes)")
  }

  @Test func lineAndColumnAfterCRLFAndWideCharacters() throws {
    let json = "[\r\n{\"id\":1,\"firstname\":\"日本😀\",\r\n\"update_date\":\"2022-02-30T00:00:00Z\"}]"
    let error = try #require(Fixture.error(decoding: json))
    #expect(error.location == InputLocation(line: 3, column: 15, byteOffset: json.utf8.count - 24))
    #expect(error.item?.location == InputLocation(line: 2, column: 1, byteOffset: 3))
  }

  @Test func quotedValuesKeepTheMessageOneVisibleLine() throws {
    // A U+2028 in an invalid date would break the message's one line:
    // controls, separators and invisible format characters are escaped.
    let json = #"[{"id":"a\u2028\u202e","update_date":"2022-01-31T08:45:\u2028\ufeff\u200f\u001b\u0085\u2029x"}]"#
    let error = try #require(Fixture.error(decoding: json))
    #expect(error.description.contains(#"(id "a\u{2028}\u{202E}")"#))
    #expect(
      error.description.contains(#"invalid date "2022-01-31T08:45:\u{2028}\u{FEFF}\u{200F}\u{1B}\u{85}\u{2029}x""#))
    #expect(
      !error.description.unicodeScalars.contains {
        $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
      })
    // Visible text, wide or combining, stays as it is.
    #expect(quoted("日本 e\u{301} 👍🏽") == "\"日本 e\u{301} 👍🏽\"")
  }

  @Test func byteOrderMarkDoesNotCountAsAColumn() throws {
    let syntax = try #require(Self.syntax([0xEF, 0xBB, 0xBF] + Array("[x]".utf8)))
    #expect(syntax.location == InputLocation(line: 1, column: 2, byteOffset: 4))
  }
}
