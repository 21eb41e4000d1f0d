import Foundation
import Testing

@testable import InboxFormat

/// A large array read in stretches on the workers (``ItemStretches``) gives
/// what reading it in order gives: the same bytes, the same skipped
/// messages, the same error at the same place, whether the guessed cuts
/// fall between items or inside them.
@Suite struct ItemStretchesTests {
  /// What a run of the pipeline gave.
  struct Outcome: Equatable, CustomStringConvertible {
    var bytes: [UInt8] = []
    var skipped: [InboxFormatError] = []
    var error: InboxFormatError?

    var description: String {
      "\(bytes.count) bytes, \(skipped.count) skipped, error: \(error.map(String.init(describing:)) ?? "none")"
    }
  }

  /// Runs the pipeline over `payload`, in stretches of `stretchLength`
  /// bytes, or in order when it is nil.
  static func run(
    _ payload: [UInt8], mapping: InputMapping = .post, stretchLength: Int?, skipping: Bool,
    layout: InboxEncoder.Layout = .compact
  ) -> Outcome {
    var pipeline = Pipeline(tables: MessageMapper(context: Pinned.context()).tables, layout: layout)
    pipeline.stretchLength = stretchLength ?? Int.max / 8
    var outcome = Outcome()
    payload.withUnsafeBufferPointer { bytes in
      do {
        _ = try pipeline.run(
          bytes: bytes, mapping: mapping, skipInvalid: skipping ? { outcome.skipped.append($0) } : nil,
          write: { outcome.bytes += $0 })
      } catch {
        outcome.error = error as? InboxFormatError
      }
    }
    // Output written before an error depends on which batches were done.
    if outcome.error != nil { outcome.bytes = [] }
    return outcome
  }

  /// More items than a batch: many stretches, whose rows are written
  /// among the first batch's.
  static let itemCount = Pipeline.batchSize + 700

  /// An item: mostly valid messages in the shapes payloads take, some with
  /// nested arrays of objects that open as the items do (a guessed cut can
  /// fall between them), and with `problems`, now and then one that is not
  /// a valid message.
  static func item(_ index: Int, problems: Bool, random: inout SplitMix) -> String {
    let names = [#""Ann""#, #""Zoë""#, #""\u00c9mile""#, #""李""#, #""""#, "null"]
    let texts = [#""Hi""#, #""See you at 5 {\"id\":1},{\"id\":2}""#, #""Line\nbreak""#, #""مرحبا""#, "null"]
    let name = names[random.next(below: names.count)]
    let text = texts[random.next(below: texts.count)]
    let date = #""2022-01-\#(10 + random.next(below: 21))T0\#(random.next(below: 10)):45:33Z""#
    let pieces = [
      #""firstname":\#(name)"#, #""lastname":\#(name)"#, #""message":\#(text)"#, #""update_date":\#(date)"#,
    ]
    let fields = pieces.joined(separator: ",")
    switch random.next(below: problems ? 24 : 20) {
    case 0..<10: return #"{"id":\#(index),\#(fields),"unread_count":\#(random.next(below: 3))}"#
    case 10..<12:
      return #"{"id":\#(index),"extra":[{"id":1},{"id":2, "x":[{"id":3}]}],\#(fields)}"#
    case 12:
      // Nested objects that are valid messages themselves.
      return #"{"id":\#(index),"replies":[{"id":1,\#(fields)},{"id":2,\#(fields)}],\#(fields)}"#
    case 13..<15:
      return "\n  {\n    \"id\" : \(index) ,\n    \(pieces.joined(separator: " ,\n    "))\n  }"
    case 15: return #"{"message":\#(text),"id":"m-\#(index)","update_date":\#(date)}"#
    case 16: return #"{"id":\#(index),"phone_number":{"international":"+33 6 12 34 56 78"},\#(fields)}"#
    case 17..<20: return #"{ "id":\#(index),\#(fields)}"#
    case 20: return #"{"id":\#(index),"unread_count":"two",\#(fields)}"#
    case 21: return #"{"firstname":"No id","update_date":\#(date)}"#
    case 22: return ["42", "null", #"[{"id":3}]"#, #""text""#][random.next(below: 4)]
    default: return #"{"id":\#(index),"update_date":"yesterday"}"#
    }
  }

  /// A payload of ``itemCount`` items: a bare array, or the payload object
  /// with keys after `items` whose arrays open as its items do.
  static func payload(seed: UInt64, problems: Bool = false) -> String {
    var random = SplitMix(seed: seed)
    let items = (0..<itemCount).map { item($0, problems: problems, random: &random) }
    let separator = [",", " , ", ",\n"][random.next(below: 3)]
    let array = "[" + items.joined(separator: separator) + "]"
    guard seed % 2 == 1 else { return array }
    return #"{"page":1,"items":\#(array),"more":[{"id":1},{"id":2},{"id":3}],"next":null}"#
  }

  static let stretchLengths = [48, 300, 4_096]

  @Test(arguments: 0..<6)
  func stretchesWriteWhatReadingInOrderWrites(seed: Int) {
    let payload = Array(Self.payload(seed: UInt64(seed)).utf8)
    let inOrder = Self.run(payload, stretchLength: nil, skipping: false)
    #expect(inOrder.error == nil)
    for layout in [InboxEncoder.Layout.compact, .pretty, .ndjson, .text(width: 60)] {
      let expected =
        layout == .compact ? inOrder : Self.run(payload, stretchLength: nil, skipping: false, layout: layout)
      for length in Self.stretchLengths {
        #expect(Self.run(payload, stretchLength: length, skipping: false, layout: layout) == expected, "\(length)")
      }
    }
  }

  @Test(arguments: 0..<6)
  func problemsAreSkippedOrThrownAsReadingInOrderDoes(seed: Int) {
    let payload = Array(Self.payload(seed: UInt64(100 + seed), problems: true).utf8)
    for skipping in [true, false] {
      let expected = Self.run(payload, stretchLength: nil, skipping: skipping)
      #expect(skipping ? !expected.skipped.isEmpty : expected.error != nil)
      for length in Self.stretchLengths {
        #expect(Self.run(payload, stretchLength: length, skipping: skipping) == expected, "\(length) \(skipping)")
      }
    }
  }

  /// Problems that end reading, past the first batch: broken JSON inside an
  /// item, between items, at the array's end and after it.
  @Test(arguments: [
    (#"{"id":5,,"update_date":"2022-01-31T08:45:33Z"}"#, ""),
    (#"{"id":5,"update_date":"2022-01-31T08:45:33Z""#, ""),
    ("{\"id\":5,\"message\":\"tab\tinside\",\"update_date\":\"2022-01-31T08:45:33Z\"}", ""),
    (#"{"id":5,"update_date":"2022-01-31T08:45:33Z"} {"id":6}"#, ""),
    ("", ",]"),
    ("", "] trailing"),
    ("", #"],"items":[]}"#),
    ("", ""),
  ])
  func brokenInputFailsWhereReadingInOrderFails(brokenItem: String, ending: String) {
    var text = Self.payload(seed: 0)
    if !brokenItem.isEmpty {
      // Replace an item well past the first batch.
      let marker = #"{"id":\#(Self.itemCount - 200),"#
      if let range = text.range(of: marker) {
        text.replaceSubrange(range, with: brokenItem + #",{"id":0,"#)
      }
    }
    if !ending.isEmpty {
      text.removeLast()  // the array's "]"
      text += ending
    } else if brokenItem.isEmpty {
      text.removeLast()  // no closing bracket at all
    }
    let payload = Array(text.utf8)
    for skipping in [true, false] {
      let expected = Self.run(payload, stretchLength: nil, skipping: skipping)
      #expect(expected.error != nil)
      for length in Self.stretchLengths {
        #expect(Self.run(payload, stretchLength: length, skipping: skipping) == expected, "\(length) \(skipping)")
      }
    }
  }

  /// A mapping's array of items is read in stretches as the post's is:
  /// every backend's shape, whole, cut short, and with data after it.
  @Test(arguments: BackendShape.allCases)
  func mappedStretchesWriteWhatReadingInOrderWrites(shape: BackendShape) throws {
    let mapping = try #require(InputMapping.builtIn(named: shape.rawValue)).viewer(shape.defaultViewer)
    var random = SplitMix(seed: 0x57E7_0000 + UInt64(BackendShape.allCases.firstIndex(of: shape)!))
    let items = SampleItems.make(count: 300, for: shape, using: &random)
    let text = shape.payload(items, viewer: shape.defaultViewer)
    let whole = Array(text.utf8)
    let payloads = [whole, Array(whole[..<(whole.count * 2 / 3)]), whole + Array(" [1]".utf8)]
    for (index, payload) in payloads.enumerated() {
      let expected = Self.run(payload, mapping: mapping, stretchLength: nil, skipping: true)
      #expect((expected.error == nil) == (index == 0), "\(shape.rawValue) \(index)")
      for length in Self.stretchLengths {
        let stretched = Self.run(payload, mapping: mapping, stretchLength: length, skipping: true)
        #expect(stretched == expected, "\(shape.rawValue) \(index) \(length)")
      }
    }
  }

  /// The pipeline's side: a stretch is kept only where reading in order
  /// has reached; one that starts elsewhere is read again from there, one
  /// wholly behind it is dropped.
  @Test func stretchesAreKeptOnlyWhereReadingHasReached() throws {
    // Six items, the third holding an array whose objects open as items do.
    let date = #""update_date":"2022-01-31T08:45:33Z""#
    let text = (0..<6).map { index in
      index == 2 ? #"{"id":2,"x":[{"id":9},{"id":9}],\#(date)}"# : #"{"id":\#(index),\#(date)}"#
    }
    let payload = Array(("[" + text.joined(separator: ",") + "]").utf8)
    func comma(before marker: String) throws -> Int {
      let whole = String(decoding: payload, as: UTF8.self)
      let range = try #require(whole.range(of: marker))
      return whole.utf8.distance(from: whole.startIndex, to: range.lowerBound) - 1
    }
    // commas[k]: the comma before item k.
    let commas = try [0, 1, 2, 3, 4, 5].map { $0 == 0 ? 0 : try comma(before: #"{"id":\#($0),"#) }
    let inside = try comma(before: #"{"id":9}]"#)
    try payload.withUnsafeBufferPointer { bytes in
      var reader = InboxReader(bytes: bytes)
      var messages = PendingMessages()
      #expect(try reader.appendNext(to: &messages))
      let offered = reader.stretches(minimumLength: 0, stretchLength: 1)
      let stretches = try #require(offered)
      #expect(stretches.start == commas[1])
      #expect(stretches.boundary(after: commas[1]) == commas[2])
      #expect(stretches.boundary(after: commas[2]) == inside)

      func read(_ start: Int, _ end: Int?) -> StretchRead {
        var messages = PendingMessages()
        var skipped: [SkippedItem] = []
        let reached = stretches.read(after: start, through: end, to: &messages, skipped: &skipped)
        return StretchRead(
          stretch: Stretch(start: start, end: end), end: reached, itemCount: messages.count + skipped.count,
          skipped: skipped)
      }
      // The guessed cut inside item 2: the stretch before it goes on to the
      // comma after item 2; the one from it reads no message (the nested
      // object lacks a date) and stops at the nested array's end.
      #expect(read(commas[2], inside).end == .comma(commas[3]))
      let fromInside = read(inside, commas[4])
      let nestedEnd = try #require(payload[inside...].firstIndex(of: UInt8(ascii: "]")))
      #expect(fromInside.end == .arrayEnd(nestedEnd))
      #expect(fromInside.skipped == [SkippedItem(comma: inside, itemsBefore: 0)])

      var reading = StretchReading(stretches: stretches)
      #expect(outcome(try reading.take(read(commas[1], commas[2]), skipInvalid: nil)) == "keep")
      #expect(outcome(try reading.take(read(commas[2], inside), skipInvalid: nil)) == "keep")
      // Starts inside what was read: item 3 is read again, up to the comma
      // at or past the stretch's end.
      #expect(outcome(try reading.take(read(inside, commas[4]), skipInvalid: nil)) == "read again: 1")
      // Wholly behind what has been read.
      #expect(outcome(try reading.take(read(commas[2], commas[3]), skipInvalid: nil)) == "drop")
      #expect(outcome(try reading.take(read(commas[4], commas[5]), skipInvalid: nil)) == "keep")
      #expect(!reading.isFinished)
      #expect(outcome(try reading.take(read(commas[5], nil), skipInvalid: nil)) == "keep")
      #expect(reading.isFinished)
      #expect(outcome(try reading.take(read(commas[5], nil), skipInvalid: nil)) == "drop")
    }
  }

  /// The guesses are cut where an item's opening follows `}` and a comma:
  /// none without such an opening (an item with no key, or a key with
  /// escapes), none inside a string.
  @Test func cutsAreGuessedOnlyBeforeAnItemsOpening() throws {
    let cases: [(String, Bool)] = [
      (#"[{"id":0},{"id":1},{"id":2}]"#, true),
      (#"[{"id":0} ,  {"id":1} , {"id":2}]"#, true),
      (#"[{},{"id":1},{"id":2}]"#, false),
      (#"[{"\u0069d":0},{"id":1},{"id":2}]"#, false),
      (#"[{"id":0,"m":"},{\"id\":1}"},{"x":1}]"#, false),
    ]
    for (text, hasCut) in cases {
      let payload = Array(text.utf8)
      try payload.withUnsafeBufferPointer { bytes in
        var reader = InboxReader(bytes: bytes)
        var messages = PendingMessages()
        _ = try? reader.appendNext(to: &messages)
        let offered = reader.stretches(minimumLength: 0, stretchLength: 1)
        let stretches = try #require(offered, "\(text)")
        let cut = stretches.boundary(after: stretches.start)
        #expect((cut != nil) == hasCut, "\(text)")
        if let cut {
          #expect(payload[cut] == UInt8(ascii: ","))
          let after = payload[(cut + 1)...].first { !isJSONWhitespace($0) }
          #expect(after == UInt8(ascii: "{"), "\(text)")
        }
      }
    }
  }
}

/// What the pipeline did with a stretch, in a word.
private func outcome(_ taken: StretchReading.Taken) -> String {
  switch taken {
  case .keep: "keep"
  case .drop: "drop"
  case .replace(let messages): "read again: \(messages.count)"
  }
}
