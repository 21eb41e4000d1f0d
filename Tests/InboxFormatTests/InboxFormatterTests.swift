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
    return InboxEncoder(layout: layout).encode(messages.map { mapper.map($0) })
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

  @Test func skippedMessagesAreReportedAndLeftOut() throws {
    let payload = Array("""
      {"id":1,"update_date":"2022-01-31T08:45:33Z"}
      {"id":2}
      {"id":3,"update_date":"2022-01-31T08:45:33Z"}
      not json
      {"id":5,"update_date":"2022-01-31T08:45:33Z"}

      """.utf8)
    var skipped: [InboxFormatError] = []
    var output: [UInt8] = []
    try InboxFormatter(context: Pinned.context(), layout: .ndjson).format(payload, skipInvalid: { skipped.append($0) }) {
      output += $0
    }
    #expect(skipped.count == 2)
    #expect(skipped.first?.item?.index == 1)
    #expect(skipped.last?.location?.line == 4)
    let ids = String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0.prefix(8) }
    #expect(ids == [#"{"id":1,"#, #"{"id":3,"#, #"{"id":5,"#])
  }
}
