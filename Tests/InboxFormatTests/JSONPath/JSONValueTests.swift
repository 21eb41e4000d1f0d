import Testing

@testable import InboxFormat

/// The tree value: read with the project's scanner, written back compact.
@Suite struct JSONValueTests {
  func read(_ json: String) throws(InboxFormatError) -> JSONValue {
    try JSONValue.read(from: Array(json.utf8))
  }

  @Test func readsEveryKindOfValue() throws {
    let value = try read(#" {"a": [1, -2.5e3, "x\u00e9", true, false, null], "b": {}} "#)
    #expect(
      value
        == .object(
          JSONObject([
            (
              "a",
              .array([
                .number(JSONNumber(text: "1", int64: 1)), .number(JSONNumber(text: "-2.5e3", int64: nil)),
                .string("xé"), .bool(true), .bool(false), .null,
              ])
            ),
            ("b", .object(JSONObject())),
          ])))
  }

  @Test func numbersKeepTheirTextAndGiveTheirValue() throws {
    guard case .array(let numbers) = try read("[1.50, 12, -0, 1E2, 9223372036854775808]") else {
      Issue.record("not an array")
      return
    }
    let parsed = numbers.compactMap { value -> JSONNumber? in
      if case .number(let number) = value { number } else { nil }
    }
    #expect(parsed.map(\.text) == ["1.50", "12", "-0", "1E2", "9223372036854775808"])
    #expect(parsed.map(\.value) == [1.5, 12, 0, 100, 9_223_372_036_854_775_808])
    #expect(parsed.map(\.int64) == [nil, 12, 0, nil, nil])
    #expect(try read("[1.50,1E2]").jsonText == "[1.50,1E2]")
  }

  @Test func aRepeatedKeyKeepsItsFirstPlaceAndItsLastValue() throws {
    let value = try read(#"{"a": 1, "b": 2, "a": 3}"#)
    #expect(value.jsonText == #"{"a":3,"b":2}"#)
  }

  @Test func largeObjectsFindTheirMembers() throws {
    let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
    let value = try read("{\(members), \"k7\": 70}")
    guard case .object(let object) = value else { return }
    #expect(object.count == 40)
    #expect(object["k39"] == .number(JSONNumber(39)))
    #expect(object["k7"] == .number(JSONNumber(70)))
    #expect(object["k40"] == nil)
  }

  @Test func writesCompactJSONWithEscapes() throws {
    let value = try read(#"{"q\"": "a\nb\u0001\\/", "e": [ ], "o": { }}"#)
    #expect(value.jsonText == #"{"q\"":"a\nb\u0001\\/","e":[],"o":{}}"#)
  }

  @Test func errorsAreLocatedSyntaxErrors() {
    #expect(
      throws: InboxFormatError.syntax(
        reason: "trailing comma before \"]\"", expected: "a value",
        location: InputLocation(line: 2, column: 3, byteOffset: 6))
    ) { try read("[1,\n  ]") }
    #expect(throws: InboxFormatError.emptyInput) { try read("  ") }
    #expect(
      performing: { try read("[1] 2") },
      throws: { error in
        (error as? InboxFormatError)?.location == InputLocation(line: 1, column: 5, byteOffset: 4)
      })
  }

  @Test func aByteOrderMarkIsSkipped() throws {
    #expect(try JSONValue.read(from: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).jsonText == "[1]")
  }

  @Test func aNestingBombIsAnErrorNotACrash() {
    let depth = 100_000
    let bomb = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(
      performing: { try read(bomb) },
      throws: { error in
        guard case .syntax(let reason, _, _) = error as? InboxFormatError else { return false }
        return reason.contains("nesting deeper than \(JSONScanner.maximumDepth)")
      })
    let deepest =
      String(repeating: "[", count: JSONScanner.maximumDepth)
      + String(repeating: "]", count: JSONScanner.maximumDepth)
    #expect((try? read(deepest)) != nil)
  }

  @Test func readsOneValueInsideALargerBuffer() throws {
    let text = Array("{\"items\": [\n  {\"id\": 1, \"to\": [2, 3]},\n  {\"id\": 2, oops}\n]}".utf8)
    let first = 14  // the first item's "{"
    #expect(text[first] == UInt8(ascii: "{"))
    let end = try #require(text[first...].firstIndex(of: UInt8(ascii: "\n")))
    try text.withUnsafeBufferPointer { buffer in
      // The item and the comma after it: the range ends before the comma.
      let value = try JSONValue.read(from: buffer, at: first..<(end - 1))
      #expect(value.jsonText == #"{"id":1,"to":[2,3]}"#)
      // Nothing past the range is read, and errors are located in the whole buffer.
      let second = end + 3
      let oopsOffset = try #require(text.firstRange(of: Array("oops".utf8))?.lowerBound)
      #expect(
        performing: { try JSONValue.read(from: buffer, at: second..<(text.count - 3)) },
        throws: { error in
          (error as? InboxFormatError)?.location == InputLocation(line: 3, column: 13, byteOffset: oopsOffset)
        })
    }
  }
}
