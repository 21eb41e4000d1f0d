import Foundation
import PropertyBased
import Testing

@testable import InboxFormat

/// The engine's rows against the rules' (`PlainRules`, no shortcut, nothing
/// remembered): through the mapper (rows of strings), and through the
/// formatter, whose rows of input bytes and of strings must write what the
/// rules' rows write. Random messages mix scripts, emoji, controls, bidi
/// controls and odd whitespace; random contexts cover locales, zones, hour
/// cycles and preview lengths.
@Suite struct RowsEquivalenceTests {
  @Test func theMappersRowsAreTheRulesRows() async {
    await propertyCheck(count: 300, input: Gen<UnsentMessage>.message.array(of: 1...8), Gen<FormattingContext>.context)
    { messages, context in
      let sent = messages.map { $0.sent(relativeTo: context.now) }
      var rules = PlainRules(context: context)
      let expected = sent.map { rules.row(of: $0) }
      let mapper = MessageMapper(context: context)
      // Twice: the second time from the memos.
      #expect(mapper.map(sent) == expected)
      #expect(sent.map(mapper.map) == expected)
    }
  }

  @Test func theFormattersBytesAreTheRulesRowsWritten() async {
    await propertyCheck(count: 200, input: Gen<UnsentMessage>.message.array(of: 1...8), Gen<FormattingContext>.context)
    { messages, context in
      let sent = messages.map { $0.sent(relativeTo: context.now) }
      var rules = PlainRules(context: context)
      let expected = InboxEncoder(layout: .compact).encode(sent.map { rules.row(of: $0) })
      // Messages written without escapes are read as input bytes (ByteRules); others as strings.
      for payload in [InboxTestPayload.bytes(of: sent), InboxTestPayload.plainBytes(of: sent)] {
        var output: [UInt8] = []
        try InboxFormatter(context: context).format(payload) { output += $0 }
        #expect(output == expected, "\(String(decoding: payload, as: UTF8.self))")
      }
    }
  }

  /// With every optional field and each date style: the engine's rows and
  /// bytes are the rules' rows written, the badge limit random, half the
  /// messages within an hour of now so that relative labels occur.
  @Test func everyFieldInEveryStyleIsTheRules() async {
    let styled = zip(Gen<FormattingContext>.context, Gen<Int>.int(in: 0...2), Gen<Int>.int(in: 1...2_000)).map {
      context, style, limit in
      context.fields(RowField.all.reversed()).dateStyle(DateStyle.all[style]).badgeLimit(limit)
    }
    await propertyCheck(count: 150, input: Gen<UnsentMessage>.message.array(of: 1...8), styled) { messages, context in
      let sent = messages.enumerated().map { index, message in
        var message = message
        if index % 2 == 0 { message.secondsFromNow = message.secondsFromNow.truncatingRemainder(dividingBy: 4_000) }
        return message.sent(relativeTo: context.now)
      }
      var rules = PlainRules(context: context)
      let expectedRows = sent.map { rules.row(of: $0) }
      #expect(MessageMapper(context: context).map(sent) == expectedRows)
      let expected = InboxEncoder(layout: .compact, fields: context.fields).encode(expectedRows)
      for payload in [InboxTestPayload.bytes(of: sent), InboxTestPayload.plainBytes(of: sent)] {
        var output: [UInt8] = []
        try InboxFormatter(context: context).format(payload) { output += $0 }
        #expect(output == expected, "\(String(decoding: payload, as: UTF8.self))")
      }
    }
  }

  /// Senders with one display name (a mapping's `name`): the mapper's rows
  /// (strings) and the formatter's bytes (the input's own bytes, through a
  /// mapping read in one pass) are the rules' rows, names of several words
  /// and scripts, ASCII or not, seen or not.
  @Test func displayNamesAreTheRules() async throws {
    let mapping = try InputMapping(
      json: Array(
        #"{"items": "$.items[*]", "id": "$.id", "name": "$.name", "phone": "$.phone_number.international", "message": "$.message", "date": "$.update_date", "unread": "$.unread_count"}"#
          .utf8),
      name: "display")
    let names = zip(Gen<String>.name, Gen<String>.name, Gen<Int>.int(in: 0...3)).map { first, last, form in
      switch form {
      case 0: first
      case 1: "\(first) \(last)"
      case 2:
        ["Jane Doe", "Cher", "jean-luc  picard", "J. R. R. Tolkien", "(Ann) Lee", "--- x", "7 up"][first.utf8.count % 7]
      default: "\(first) \(last) \(first)"
      }
    }
    await propertyCheck(
      count: 200, input: zip(Gen<UnsentMessage>.message, names).array(of: 1...8), Gen<FormattingContext>.context
    ) { messages, context in
      let sent = messages.map { message, name in
        var sent = message.sent(relativeTo: context.now)
        sent.displayName = name
        return sent
      }
      var rules = PlainRules(context: context)
      let expectedRows = sent.map { rules.row(of: $0) }
      #expect(MessageMapper(context: context).map(sent) == expectedRows)
      let expected = InboxEncoder(layout: .compact).encode(expectedRows)
      var output: [UInt8] = []
      let payload = InboxTestPayload.plainBytes(of: sent).replacing(
        Array(#""firstname":"#.utf8), with: Array(#""name":"#.utf8))
      try InboxFormatter(context: context, mapping: mapping).format(payload) { output += $0 }
      #expect(output == expected, "\(String(decoding: payload, as: UTF8.self))")
    }
  }

  /// Previews near their limit, in bytes and in clusters, every way they
  /// can lie in the input: the formatter cuts exactly where the rules do.
  @Test func previewsAroundTheirLimit() throws {
    let texts = (0...24).flatMap { length in
      [
        String(repeating: "a", count: length), String(repeating: "é", count: length),
        String(repeating: "e\u{301}", count: length),
      ]
    }
    for limit in 1...20 {
      let context = Pinned.context(previewLength: limit)
      var rules = PlainRules(context: context)
      let messages = texts.enumerated().map {
        MessageAPIModel(id: .integer(Int64($0)), firstname: "Ann", message: $1, updateDate: context.now)
      }
      let expected = InboxEncoder(layout: .compact).encode(messages.map { rules.row(of: $0) })
      var output: [UInt8] = []
      try InboxFormatter(context: context).format(InboxTestPayload.plainBytes(of: messages)) { output += $0 }
      #expect(output == expected, "limit \(limit)")
    }
  }
}
