import Foundation
import Testing

/// Payload shapes and names at the edge of the rules: an object whose `id`
/// comes before `items` is a message, and a name with no visible character
/// is no name.
@Suite struct PayloadShapeTests {
  static let pinned = ["--now", Hostile.now, "--locale", "en-US", "--time-zone", "Europe/Paris"]

  static func rows(_ result: RawProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) -> [[String: Any]] {
    expectNoSignal(result, sourceLocation: sourceLocation)
    #expect(result.exitStatus == 0, "\(result)", sourceLocation: sourceLocation)
    return (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] ?? []
  }

  /// The input from a file, from standard input read from a file, and from a pipe.
  static func everyWay(_ payload: String) throws -> [RawProcess.Result] {
    let file = try TemporaryFile(Array(payload.utf8))
    return [
      try RawProcess.run(pinned + [file.path]),
      try RawProcess.run(pinned, stdin: .path(file.path)),
      try RawProcess.run(pinned, stdin: .pipe, feed: .bytes(Array(payload.utf8))),
      try RawProcess.run(pinned + ["--output", "ndjson", file.path]).mapOutput { ndjson in
        Array(("[" + String(decoding: ndjson, as: UTF8.self).split(separator: "\n").joined(separator: ",") + "]").utf8)
      },
    ]
  }

  @Test func anIdBeforeItemsMakesTheObjectAMessage() throws {
    let payload = """
      {"id":1,"items":[1],"update_date":"2022-01-31T08:45:33Z"}
      {"id":2,"items":{"a":[]},"update_date":"2022-01-30T08:45:33Z","firstname":"Bo"}

      """
    for result in try Self.everyWay(payload) {
      let rows = Self.rows(result)
      #expect(rows.map { $0["id"] as? Int } == [1, 2], "\(result)")
      #expect(rows.map { $0["date"] as? String } == ["9:45\u{202F}AM", "Yesterday"])
      #expect(rows.last?["title"] as? String == "Bo")
    }
    // One such object alone, with or without a line break, is one message.
    for alone in [
      #"{"id":"a","items":[],"update_date":"2022-01-31T08:45:33Z"}"#,
      #"{"id":"a","items":[],"update_date":"2022-01-31T08:45:33Z"}"# + "\n",
    ] {
      for result in try Self.everyWay(alone) {
        #expect(Self.rows(result).map { $0["id"] as? String } == ["a"], "\(result)")
      }
    }
    // `items` first: a payload, as before.
    for result in try Self.everyWay(#"{"items":[{"id":7,"update_date":"2022-01-31T08:45:33Z"}],"id":1}"#) {
      #expect(Self.rows(result).map { $0["id"] as? Int } == [7], "\(result)")
    }
  }

  /// Names made only of characters nobody sees: zero-width spaces and
  /// joiners, word joiners, soft hyphens, Hangul fillers, the Mongolian
  /// vowel separator, the byte order mark, the combining grapheme joiner,
  /// tags, variation selectors, with spaces of every kind.
  static let invisibleNames = [
    "\u{200B}", "\u{2060}", "\u{00AD}", "\u{3164}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{180E}", "\u{FEFF}",
    "\u{034F}",
    "\u{200C}\u{200D}", "\u{200E}\u{200F}", "\u{2061}\u{2062}\u{2063}\u{2064}", "\u{E0020}\u{E007F}", "\u{FE0F}",
    " \u{200B} \u{3000}\u{2060} ", "\u{00A0}\u{00AD}\u{2007}", "\u{3164}\u{3164}\u{3164}", "\u{17B4}\u{17B5}",
    "\u{061C}",
    "\u{1D173}\u{1D17A}", "\t\u{200B}\n",
  ]

  @Test(arguments: invisibleNames)
  func aNameNobodySeesIsNoName(name: String) throws {
    let json = { (text: String) in String(decoding: try! JSONEncoder().encode(text), as: UTF8.self) }
    let invisible = json(name)
    let payload = """
      {"id":1,"firstname":\(invisible),"lastname":\(invisible),"update_date":"2022-01-31T08:45:33Z"}
      {"id":2,"firstname":\(invisible),"lastname":"Bob","update_date":"2022-01-31T08:45:33Z"}
      {"id":3,"firstname":"Ann","lastname":\(invisible),"update_date":"2022-01-31T08:45:33Z"}
      {"id":4,"firstname":\(invisible),"phone_number":{"international":"+33 1 23"},"update_date":"2022-01-31T08:45:33Z"}
      {"id":5,"firstname":\(invisible),"lastname":\(invisible),"phone_number":{"international":\(invisible)},"update_date":"2022-01-31T08:45:33Z"}

      """
    let rows = Self.rows(try RawProcess.run(Self.pinned, stdin: .pipe, feed: .bytes(Array(payload.utf8))))
    #expect(
      rows.map { $0["title"] as? String } == ["Unknown", "Bob", "Ann", "+33 1 23", "Unknown"],
      "\(name.unicodeScalars.map(\.value))")
    #expect(rows.map { $0["initials"] as? String } == ["?", "B", "A", "?", "?"], "\(name.unicodeScalars.map(\.value))")
    // The same through the inbox view: no row without a visible title.
    let view = try RawProcess.run(Self.pinned + ["--output", "text"], stdin: .pipe, feed: .bytes(Array(payload.utf8)))
    #expect(view.exitStatus == 0)
    #expect(view.stdoutText.contains("?   Unknown"), "\(view.stdoutText)")
  }

  /// An initial is never an invisible character, even before a letter.
  @Test func anInitialSkipsWhatNobodySees() throws {
    let payload =
      #"[{"id":1,"firstname":"\u3164\u200bZoe","lastname":"\u115f\u00adMa","update_date":"2022-01-31T08:45:33Z"}]"#
    let rows = Self.rows(try RawProcess.run(Self.pinned, stdin: .pipe, feed: .bytes(Array(payload.utf8))))
    #expect(rows.first?["initials"] as? String == "ZM")
  }

  /// U+2800 BRAILLE PATTERN BLANK is drawn as an empty cell: a name of it
  /// shows nothing, though Unicode counts it as a symbol, not as
  /// default-ignorable (it is a favourite for blank user names).
  @Test func aBrailleBlankNameIsNoName() throws {
    let payload = #"[{"id":1,"firstname":"\u2800","lastname":"\u2800 \u2800","update_date":"2022-01-31T08:45:33Z"}]"#
    let rows = Self.rows(try RawProcess.run(Self.pinned, stdin: .pipe, feed: .bytes(Array(payload.utf8))))
    #expect(rows.first?["title"] as? String == "Unknown")
  }
}

extension RawProcess.Result {
  /// The same result with standard output turned by `transform`.
  func mapOutput(_ transform: ([UInt8]) -> [UInt8]) -> RawProcess.Result {
    var copy = self
    copy.stdout = transform(stdout)
    return copy
  }
}
