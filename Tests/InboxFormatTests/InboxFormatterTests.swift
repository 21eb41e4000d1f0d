import Foundation
import Testing

@testable import InboxFormat

/// The fast path (``InboxFormatter``: own reader, batches on several
/// threads, shared label caches, streamed NDJSON) must give exactly the bytes
/// of the plain path: Foundation's `JSONDecoder`, one ``MessageMapper`` call
/// per message, and ``InboxEncoder``.
@Suite struct InboxFormatterTests {
  static let dataDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Data")

  static let inputs: [String] = [
    "corpus/corpus-1000.json", "corpus/corpus-1000.ndjson", "examples/messages.json",
    "golden/inputs/rules.json", "golden/inputs/paris-dst.ndjson", "golden/inputs/sao-paulo-2018.json",
    "golden/inputs/apia-2011.json",
  ]

  static let contexts: [FormattingContext] = [
    Pinned.context(),
    Pinned.context(locale: "ja-JP", timeZone: "Asia/Tokyo", hourCycle: .twelveHour),
    Pinned.context(locale: "ar-EG", timeZone: "America/Sao_Paulo", previewLength: 12),
    Pinned.context(locale: "tr-TR", timeZone: "Europe/Istanbul"),
    Pinned.context(locale: "fa-IR", timeZone: "Asia/Tehran").fields(RowField.all).dateStyle(.relative),
    Pinned.context(locale: "he-IL", timeZone: "Asia/Jerusalem").fields(RowField.all.reversed()).dateStyle(.compact)
      .badgeLimit(9),
  ]

  static let layouts: [InboxEncoder.Layout] = [.compact, .pretty, .ndjson]

  func bytes(_ input: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: Self.dataDirectory.appendingPathComponent(input)))
  }

  /// The plain path: Foundation decodes, each message is mapped on its own.
  func plainOutput(_ payload: [UInt8], context: FormattingContext, layout: InboxEncoder.Layout) throws -> [UInt8] {
    let decoder = JSONDecoder()
    let messages: [MessageAPIModel]
    if let payloadObject = try? decoder.decode(InboxPayload.self, from: Data(payload)) {
      messages = payloadObject.items
    } else if let array = try? decoder.decode([MessageAPIModel].self, from: Data(payload)) {
      messages = array
    } else {
      messages = try payload.split(separator: UInt8(ascii: "\n")).map {
        try decoder.decode(MessageAPIModel.self, from: Data($0))
      }
    }
    let mapper = MessageMapper(context: context)
    return InboxEncoder(layout: layout, fields: context.fields).encode(messages.map { mapper.map($0) })
  }

  @Test(arguments: inputs)
  func fastPathMatchesThePlainPath(_ input: String) throws {
    let payload = try bytes(input)
    for context in Self.contexts {
      for layout in Self.layouts {
        let expected = try plainOutput(payload, context: context, layout: layout)
        let formatter = InboxFormatter(context: context, layout: layout)
        var whole: [UInt8] = []
        try formatter.format(payload) { whole += $0 }
        #expect(whole == expected, "\(input), \(context.locale.identifier), whole buffer")
        // In small pieces, so NDJSON streams through many readers.
        var offset = 0
        var streamed: [UInt8] = []
        try formatter.format(reading: {
          guard offset < payload.count else { return nil }
          defer { offset += 997 }
          return Array(payload[offset..<min(offset + 997, payload.count)])
        }) { streamed += $0 }
        #expect(streamed == expected, "\(input), \(context.locale.identifier), in pieces")
      }
    }
  }

  /// Messages at each turn of the fast path: texts copied from the input
  /// or not (escapes, texts to clean, previews to cut), initials told by
  /// their first letters or by the general rule, titles from names, phone
  /// numbers or the placeholder.
  static let edgeCases = #"""
    {"items":[
    {"id":1,"firstname":"Søren","lastname":"Müller","message":"plain text","update_date":"2022-01-31T08:45:33Z"},
    {"id":2,"firstname":"\u00c9mile","lastname":"Zola","message":"escaped \"quote\"","update_date":"2022-01-30T08:45:33Z"},
    {"id":3,"firstname":"  Anna ","lastname":"van  Gogh","message":"two\nlines\tand  spaces","update_date":"2022-01-29T08:45:33Z"},
    {"id":"s-4","firstname":"小明","lastname":"王","message":"你好","update_date":"2021-12-01T08:45:33+09:00"},
    {"id":5,"firstname":"John","lastname":"王","message":"","update_date":"2022-01-31T11:59:59Z"},
    {"id":6,"firstname":"","lastname":null,"message":"ok","phone_number":{"international":"+33 6 45 67 99 66"},"update_date":"2022-01-25T00:00:00Z"},
    {"id":7,"message":"no phone","update_date":"2022-01-25T00:00:00Z","unread_count":3},
    {"id":8,"firstname":"!!!","lastname":"***","message":"x","phone_number":{"international":" +1  555 "},"update_date":"2022-02-01T00:00:00Z"},
    {"id":9,"lastname":"İnan","message":"a message long enough to be cut short","phone_number":null,"update_date":"2020-01-01T00:00:00Z"},
    {"id":10,"firstname":"e\u0301mile","lastname":"Ødegaard","message":"😀 👍🏽","update_date":"2022-01-31T00:00:00Z"},
    {"id":11,"firstname":"محمد","lastname":"العلي","message":"\u202Espoof","update_date":"2022-01-31T00:00:00Z"},
    {"id":12,"firstname":"(Alex)","lastname":"Ж","message":"ok","phone_number":{"international":"\u0000"},"update_date":"2022-01-31T00:00:00Z"},
    {"id":13,"firstname":"","lastname":"","phone_number":{"international":"+44\t20"},"update_date":"2022-01-31T00:00:00Z"}
    ]}
    """#

  @Test func fastPathMatchesThePlainPathOnEdgeCases() throws {
    let payload = Array(Self.edgeCases.utf8)
    var untitled = Pinned.context(previewLength: 8)
    untitled.untitledPlaceholder = "Nobody \"quoted\""
    for context in Self.contexts + [untitled] {
      for layout in Self.layouts {
        let expected = try plainOutput(payload, context: context, layout: layout)
        var output: [UInt8] = []
        try InboxFormatter(context: context, layout: layout).format(payload) { output += $0 }
        #expect(output == expected, "\(context.locale.identifier), \(layout)")
      }
    }
  }

  @Test func errorsInLaterPiecesPointIntoTheWholeInput() throws {
    var lines = try bytes("corpus/corpus-1000.ndjson").split(separator: UInt8(ascii: "\n")).map(Array.init)
    lines[700] = Array(#"{"id":"broken","update_date":"2022-02-30T00:00:00Z"}"#.utf8)
    let payload = Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    var offset = 0
    let formatter = InboxFormatter(context: Pinned.context())
    #expect {
      try formatter.format(reading: {
        guard offset < payload.count else { return nil }
        defer { offset += 4096 }
        return Array(payload[offset..<min(offset + 4096, payload.count)])
      }) { _ in }
    } throws: { error in
      guard let error = error as? InboxFormatError, case .invalidDate(let item, _, _, let location) = error else {
        return false
      }
      return item.path == "[700]" && item.id == .string("broken") && location.line == 701
    }
  }

  /// The excerpt of a bad `\u` escape followed by a broken UTF-8 sequence
  /// stops at the line break, which a piece of NDJSON does not hold past,
  /// so the message is the same whole and in pieces.
  @Test func aBrokenLineReadsTheSameWholeAndInPieces() throws {
    let payload: [UInt8] =
      Array(#"{"id":1,"update_date":"2022-01-31T10:00:00Z"}"#.utf8) + [0x0A]
      + Array(#"{"id":2,"lastname":"{\u"#.utf8) + [0xEF, 0x0A, 0x20, 0x41, 0x22, 0x7D, 0x0A]
    let formatter = InboxFormatter(context: Pinned.context())
    func error(_ format: () throws -> Void) -> String? {
      do {
        try format()
        return nil
      } catch {
        return "\(error)"
      }
    }
    let whole = error { try formatter.format(payload) { _ in } }
    // One line per read, so that the broken line is a piece of its own.
    var lines = payload.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
    let pieces = error {
      try formatter.format(reading: { lines.isEmpty ? nil : lines.removeFirst() }) { _ in }
    }
    #expect(whole != nil)
    #expect(whole == pieces, "\(whole ?? "") vs \(pieces ?? "")")
  }

  /// Input read piece by piece stops where it fails (a NUL, a line that
  /// cannot become a message, a first byte that begins no payload) and says
  /// what reading it whole says, for every size of piece, throwing or
  /// skipping: a NUL fails a broken first line too; a broken line's error is
  /// told once the line holds it (a number, then more on its line, is a
  /// syntax error, not "found a number"); a first byte is described with
  /// the bytes of its character.
  @Test(arguments: [
    Array(#"{"i":"x","la"#.utf8) + [0x96] + Array(#"tname":1}"#.utf8) + [0, 0, 0x0A]
      + Array(#"{"id":2,"update_date":"2022-01-31T08:45:33Z"}"#.utf8),
    Array("{\"id\":1,\"update_date\":\"2022-01-31T10:00:00Z\"}\n{\"id\":3}\n4 2\n{\"id\":4}\n".utf8),
    [0xC2, 0x41, 0x0A],
    Array("[1, 2".utf8) + [0xC2],
  ])
  func pieceByPieceReadsAsTheWhole(payload: [UInt8]) throws {
    let formatter = InboxFormatter(context: Pinned.context(), layout: .ndjson)
    func run(skipping: Bool, _ format: (((InboxFormatError) -> Void)?, ([UInt8]) throws -> Void) throws -> Void)
      -> String
    {
      var log: [String] = []
      do {
        try format(skipping ? { log.append("skipped \($0)") } : nil) { log.append(String(decoding: $0, as: UTF8.self)) }
      } catch {
        log.append("threw \(error)")
      }
      return log.joined()
    }
    for skipping in [false, true] {
      let whole = run(skipping: skipping) { try formatter.format(payload, skipInvalid: $0, write: $1) }
      for size in 1...8 {
        var rest = payload[...]
        let pieces = run(skipping: skipping) { skip, write in
          try formatter.format(
            reading: {
              guard !rest.isEmpty else { return nil }
              defer { rest = rest.dropFirst(size) }
              return Array(rest.prefix(size))
            }, skipInvalid: skip, write: write)
        }
        #expect(pieces == whole, "pieces of \(size), skipping: \(skipping)")
      }
    }
  }

  /// What `watch` waits for and the service's `Cache-Control` runs to: with
  /// relative labels, the next minute of the first label to change; with
  /// the spoken date among the fields, its midnight too.
  @Test func theStaleInstantFollowsRelativeMinutesAndSpokenDates() throws {
    let payload = Array(
      #"[{"id":1,"update_date":"2022-01-31T11:54:50Z"},{"id":2,"update_date":"2022-01-31T11:59:40Z"}]"#.utf8)
    let relative = InboxFormatter(context: Pinned.context().dateStyle(.relative))
    // 11:59:40 is "Now" until 12:00:40; 11:54:50 is "5 min. ago" until 12:00:50.
    #expect(try relative.format(payload) { _ in } == Pinned.instant("2022-01-31T12:00:40Z"))
    #expect(
      try relative.now(Pinned.instant("2022-01-31T12:00:45Z")).format(payload) { _ in }
        == Pinned.instant("2022-01-31T12:00:50Z"))
    // The standard labels hold until the Paris midnight, 23:00 UTC.
    #expect(
      try InboxFormatter(context: Pinned.context()).format(payload) { _ in } == Pinned.instant("2022-01-31T23:00:00Z"))
    // A relative label that outlives midnight: 23:59:30 Paris, seen at 23:59:50. "Now" until 00:00:30,
    // but the spoken date ("11:59 PM") becomes "Yesterday" at midnight.
    let lateNow = Pinned.instant("2022-01-31T22:59:50Z")
    let late = Array(#"[{"id":1,"update_date":"2022-01-31T22:59:30Z"}]"#.utf8)
    let dateOnly = InboxFormatter(context: Pinned.context(now: lateNow).dateStyle(.relative))
    #expect(try dateOnly.format(late) { _ in } == Pinned.instant("2022-01-31T23:00:30Z"))
    let spoken = InboxFormatter(
      context: Pinned.context(now: lateNow).dateStyle(.relative).fields([.date, .spokenDate]))
    #expect(try spoken.format(late) { _ in } == Pinned.instant("2022-01-31T23:00:00Z"))
  }

  @Test func skippedMessagesAreReportedAndLeftOut() throws {
    let payload = Array(
      """
      {"id":1,"update_date":"2022-01-31T08:45:33Z"}
      {"id":2}
      {"id":3,"update_date":"2022-01-31T08:45:33Z"}
      not json
      {"id":5,"update_date":"2022-01-31T08:45:33Z"}

      """.utf8)
    var skipped: [InboxFormatError] = []
    var output: [UInt8] = []
    try InboxFormatter(context: Pinned.context(), layout: .ndjson).format(payload, skipInvalid: { skipped.append($0) })
    {
      output += $0
    }
    #expect(skipped.count == 2)
    #expect(skipped.first?.item?.index == 1)
    #expect(skipped.last?.location?.line == 4)
    let ids = String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0.prefix(8) }
    #expect(ids == [#"{"id":1,"#, #"{"id":3,"#, #"{"id":5,"#])
  }
}
