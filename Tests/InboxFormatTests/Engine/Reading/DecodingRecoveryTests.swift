import Foundation
import Testing

@testable import InboxFormat

@Suite struct DecodingRecoveryTests {
  typealias Fixture = DecodingFixture

  static func skipping(_ json: String) throws(InboxFormatError) -> (
    messages: [MessageAPIModel], skipped: [InboxFormatError]
  ) {
    try InboxDecoder().decodeSkippingInvalid(Array(json.utf8))
  }

  static let ndjsonWithBrokenLine = [
    Fixture.message(id: "1"),
    #"{"id":2,"update_date":"2022-01-31T08:45:33Z""#,
    Fixture.message(id: "3"),
  ].joined(separator: "\n")

  @Test func brokenNDJSONLineIsFatalForDecode() {
    // The second line lacks its "}": the line is broken at its end, though
    // the reading only fails on the third line's "{".
    #expect(
      Fixture.error(decoding: Self.ndjsonWithBrokenLine)
        == .brokenLine(
          index: 1, reason: "unexpected end of line",
          expected: "the rest of the message on the same line (NDJSON holds one message per line)",
          location: InputLocation(line: 2, column: 45, byteOffset: 90)))
  }

  @Test func aMessageGoingOnPastALineBreakIsABrokenLine() throws {
    // Valid JSON, but not NDJSON: read whole or in pieces of lines, the
    // message could not be the same, so it is refused both ways.
    let json = [
      Fixture.message(id: "1"), #"{"id":2,"#, #""update_date":"2022-01-31T08:45:33Z"}"#, Fixture.message(id: "3"),
    ]
    .joined(separator: "\n")
    let (messages, skipped) = try Self.skipping(json)
    #expect(messages.map(\.id) == [.integer(1), .integer(3)])
    #expect(skipped.map(\.location?.line) == [2, 3])
    #expect(
      skipped.first
        == .brokenLine(
          index: 1, reason: "unexpected end of line",
          expected: "the rest of the message on the same line (NDJSON holds one message per line)",
          location: Fixture.location(of: "\n\"update", in: json)))
    // A pretty-printed message alone is not NDJSON either.
    guard case .brokenLine(0, "unexpected end of line", _, let location) = Fixture.error(decoding: "{\n  \"id\": 1\n}")
    else {
      Issue.record("expected a broken line")
      return
    }
    #expect(location == InputLocation(line: 1, column: 2, byteOffset: 1))
  }

  @Test func aLineBrokenAtItsEndIsTheOneSkipped() throws {
    let json = [Fixture.message(id: "1"), #"{"id":2,"#, Fixture.message(id: "3"), #"{"id":4,"x":["#, "", "]]}"]
      .joined(separator: "\n")
    let (messages, skipped) = try Self.skipping(json)
    #expect(messages.map(\.id) == [.integer(1), .integer(3)])
    #expect(skipped.map(\.location?.line) == [2, 4, 6])
    #expect(skipped.map(\.location?.column) == [9, 14, 1])
    guard case .brokenLine(1, let reason, _, _) = skipped[0] else {
      Issue.record("expected line item 1 to be broken")
      return
    }
    #expect(reason == "unexpected end of line")
    let indices = skipped.map { problem -> Int? in
      guard case .brokenLine(let index, _, _, _) = problem else { return nil }
      return index
    }
    #expect(indices == [1, 3, 4])
  }

  @Test func brokenNDJSONLineIsSkippedWhenSkippingInvalid() throws {
    let (messages, skipped) = try Self.skipping(Self.ndjsonWithBrokenLine)
    #expect(messages.map(\.id) == [.integer(1), .integer(3)])
    #expect(skipped == [Fixture.error(decoding: Self.ndjsonWithBrokenLine)!])
  }

  @Test func brokenFirstNDJSONLineIsRecoverable() throws {
    let json = "{\"id\":1,\"update_date\":\"x\" oops}\n" + Fixture.message(id: "2") + "\n"
    let (messages, skipped) = try Self.skipping(json)
    #expect(messages.map(\.id) == [.integer(2)])
    #expect(skipped.count == 1)
    guard case .brokenLine(0, _, _, let location) = skipped.first else {
      Issue.record("expected line item 0 to be broken")
      return
    }
    #expect(location == InputLocation(line: 1, column: 27, byteOffset: 26))
  }

  @Test func brokenObjectAcrossLinesBeforeItemsIsFatal() {
    let json = "{\n  \"version\": x,\n  \"items\": []\n}"
    #expect(throws: InboxFormatError.self) { try Self.skipping(json) }
  }

  @Test func brokenItemsValueIsFatalEvenOnOneLine() {
    #expect(throws: InboxFormatError.self) { try Self.skipping(#"{"items": x}"# + "\n" + Fixture.message(id: "1")) }
  }

  @Test func ndjsonItemErrorsCarryLinePaths() throws {
    let json = [
      Fixture.message(id: "1"),
      "",
      #"{"id":2}"#,
      "42",
      Fixture.message(id: "3") + " " + Fixture.message(id: "4"),
      #"{"id":5,"update_date":"2022-02-29T00:00:00Z"}"#,
      Fixture.message(id: "6"),
    ].joined(separator: "\n")
    let (messages, skipped) = try Self.skipping(json)
    #expect(messages.map(\.id) == [.integer(1), .integer(6)])
    #expect(skipped.count == 4)
    #expect(skipped.map(\.item?.path) == ["[1]", "[2]", nil, "[4]"])
    #expect(skipped.map(\.location?.line) == [3, 4, 5, 6])
    #expect(
      skipped[1]
        == .typeMismatch(
          item: ItemReference(
            path: "[2]", index: 2, id: nil, location: InputLocation(line: 4, column: 1, byteOffset: 56)),
          field: "", expected: "a message object", found: "a number",
          location: InputLocation(line: 4, column: 1, byteOffset: 56)))
    guard case .brokenLine(3, let reason, let expected, _) = skipped[2] else {
      Issue.record("expected a syntax error for two messages on one line")
      return
    }
    #expect(reason == "unexpected character \"{\"")
    #expect(expected == "a line break after the message")
    #expect(skipped[3].item?.id == .integer(5))
  }

  @Test func skipsSeveralInvalidItemsInAPayload() throws {
    let json = """
      {"items": [
        {"id": 1, "update_date": "2022-01-31T08:45:33Z"},
        {"id": 2, "update_date": "yesterday"},
        {"id": "three", "unread_count": 1.5, "update_date": "2022-01-31T08:45:33Z"},
        {"update_date": "2022-01-31T08:45:33Z"},
        [1, 2],
        {"id": 6, "update_date": "2022-01-31T08:45:33Z", "phone_number": {"international": ["+1"]}},
        {"id": 7, "update_date": "2022-01-31T08:45:33+01:00"}
      ]}
      """
    let (messages, skipped) = try Self.skipping(json)
    #expect(messages.map(\.id) == [.integer(1), .integer(7)])
    #expect(skipped.map(\.item?.path) == ["items[1]", "items[2]", "items[3]", "items[4]", "items[5]"])
    #expect(skipped.map(\.item?.id) == [.integer(2), .string("three"), nil, nil, .integer(6)])
    #expect(skipped.map(\.location?.line) == [3, 4, 5, 6, 7])
    #expect(
      skipped[0]
        == .invalidDate(
          item: ItemReference(
            path: "items[1]", index: 1, id: .integer(2), location: InputLocation(line: 3, column: 3, byteOffset: 66)),
          value: "yesterday", reason: "expected a 4-digit year",
          location: InputLocation(line: 3, column: 28, byteOffset: 91)))
    #expect(skipped[3].description == "line 6, column 3: items[4]: found an array; expected a message object")
  }

  @Test func syntaxErrorInAPayloadStillThrows() {
    let json = "[" + Fixture.message(id: "1") + ",{\"id\":2,}," + Fixture.message(id: "3") + "]"
    #expect(throws: InboxFormatError.self) { try Self.skipping(json) }
  }

  @Test func shapeErrorsStillThrow() {
    #expect(throws: InboxFormatError.emptyInput) { try Self.skipping("  ") }
    #expect(throws: InboxFormatError.self) { try Self.skipping(#"{"items":"no"}"#) }
  }

  @Test func manySkippedItemsKeepExactLines() throws {
    let lines = (0..<3_000).map { index in
      index.isMultiple(of: 3)
        ? Fixture.message(id: "\(index)") : #"{"id":\#(index),"update_date":"2022-02-30T00:00:00Z"}"#
    }
    let (messages, skipped) = try Self.skipping(lines.joined(separator: "\n"))
    #expect(messages.count == 1_000)
    #expect(skipped.count == 2_000)
    #expect(skipped.allSatisfy { $0.location?.line == ($0.item?.index ?? -1) + 1 })
    #expect(skipped.allSatisfy { $0.location?.column == "{\"id\":\($0.item!.index),\"update_date\":".count + 1 })
  }

  @Test func readerContinuesAfterItemErrorsAndStopsAfterFatalOnes() throws {
    let json = "[" + Fixture.message(id: "1") + #",{"id":2},"# + Fixture.message(id: "3") + ",oops]"
    try Array(json.utf8).withUnsafeBufferPointer { buffer throws in
      var reader = InboxReader(bytes: buffer)
      #expect(try reader.next()?.id == .integer(1))
      #expect(throws: InboxFormatError.self) { try reader.next() }
      #expect(!reader.hasFailed)
      #expect(try reader.next()?.id == .integer(3))
      let fatal = #expect(throws: InboxFormatError.self) { try reader.next() }
      #expect(reader.hasFailed)
      #expect(reader.form == .array)
      // A fatal error repeats rather than reading on.
      let again = #expect(throws: InboxFormatError.self) { try reader.next() }
      #expect(fatal == again)
    }
  }

  @Test func readerReportsTheEndRepeatedly() throws {
    try Array(Fixture.message(id: "1").utf8).withUnsafeBufferPointer { buffer throws in
      var reader = InboxReader(bytes: buffer)
      #expect(try reader.next() != nil)
      #expect(reader.form == .ndjson)
      #expect(try reader.next() == nil)
      #expect(try reader.next() == nil)
    }
  }
}
