import Testing

@testable import InboxFormat

/// How an input's start decides its form: NDJSON when its first line holds
/// one whole message object, otherwise one document, decided for a payload
/// object as soon as its `items` key is read.
@Suite struct InputStartTests {
  /// The rule, searching the first line whatever the input: NDJSON when
  /// the first line is one whole, valid message object.
  static func byFirstLine(_ text: String) -> InputStart {
    let bytes = Array(text.utf8)
    guard let start = bytes.firstIndex(where: { !isJSONWhitespace($0) }) else { return .document }
    switch bytes[start] {
    case UInt8(ascii: "["): return .document
    case UInt8(ascii: "{"):
      guard let lineFeed = bytes[start...].firstIndex(of: 0x0A) else { return .document }
      let line = Array(bytes[start..<lineFeed])
      return line.withUnsafeBufferPointer { line in
        var reader = InboxReader(bytes: line)
        guard (try? reader.next()) != nil, reader.form == .ndjson, (try? reader.next()) == nil else {
          return .document
        }
        return .ndjson
      }
    default: return .invalid
    }
  }

  static let date = #""update_date":"2022-01-31T08:45:33Z""#
  static let inputs = [
    #"{"items":[{"id":1,\#(date)}]}"# + "\n",
    #"{"items":[{"id":1,\#(date)}]}"#,
    "{\n  \"items\": [\n    {\"id\": 1, \(date)}\n  ]\n}\n",
    #"{"page":{"next":null},"items":[]}"# + "\n",
    #"{"items":[]}"# + "\n" + #"{"id":2,\#(date)}"# + "\n",
    #"{"a":1,"# + "\n" + #""items":[]}"#,
    #"{"id":1,\#(date)}"# + "\n" + #"{"id":2,\#(date)}"# + "\n",
    #"{"id":1,"items":[],\#(date)}"# + "\n",
    #"{"id":1,\#(date),"items":[]}"# + "\n",
    #"{"message":"no id"}"# + "\n" + #"{"id":2,\#(date)}"#,
    #"{"id":1,\#(date)} {"id":2,\#(date)}"# + "\n",
    #"{"items":[{"id":1,\#(date)}]} trailing"# + "\n",
    #"{"items":"#,
    #"{"it"#,
    "[" + #"{"id":1,\#(date)}"# + "]\n",
    "x\n",
  ]

  @Test(arguments: inputs)
  func aWholeInputIsDecidedAsByItsFirstLine(_ text: String) {
    let bytes = Array(text.utf8)
    var searched = 0
    let start = bytes.withUnsafeBufferPointer { InputStart($0, isComplete: true, searched: &searched) }
    #expect(start == Self.byFirstLine(text))
  }

  /// A payload on one long line is a document once its `items` key is
  /// read: its head needs no line feed, and none is searched for.
  @Test func aPayloadIsADocumentFromItsItemsKey() {
    for head in [#"{"items":["#, #"{"page":1,"items":[{"id":1,"#] {
      var searched = 0
      let start = Array(head.utf8).withUnsafeBufferPointer {
        InputStart($0, isComplete: false, searched: &searched)
      }
      #expect(start == .document, "\(head)")
      #expect(searched == 0, "\(head)")
    }
    // Before the key is whole, the head is still undecided.
    var searched = 0
    let start = Array(#"{"ite"#.utf8).withUnsafeBufferPointer {
      InputStart($0, isComplete: false, searched: &searched)
    }
    #expect(start == .undecided)
  }
}
