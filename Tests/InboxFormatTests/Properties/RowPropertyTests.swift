import Foundation
import PropertyBased
import Testing

@testable import InboxFormat

/// The README's promises for every row, checked over random messages (names
/// and text mixing scripts, emoji, controls, bidi controls and whitespace)
/// and random contexts (locales, time zones with and without DST, hour
/// cycles, preview lengths, instants around DST changes and midnights).
///
/// A failure prints its input and a `.fixedSeed(…)` trait that replays it.
@Suite struct RowPropertyTests {
  @Test func initialsAreAQuestionMarkOrOneOrTwoGraphemesStartingWithALetterOrDigit() async {
    await propertyCheck(count: 400, input: Gen<String>.name, Gen<String>.name, Gen<String>.localeName) {
      firstname, lastname, locale in
      let context = Pinned.context(locale: locale)
      let row = MessageMapper(context: context).map(
        MessageAPIModel(id: .integer(1), firstname: firstname, lastname: lastname, updateDate: context.now))
      let initials = row.initials
      guard initials != "?" else { return }
      // Two initials of a joining script keep a ZERO WIDTH NON-JOINER
      // between them, which extends the first grapheme: still two.
      #expect((1...2).contains(initials.count), "\(initials.debugDescription)")
      for grapheme in initials {
        #expect(grapheme.unicodeScalars.first.map(isLetterOrDigit) == true, "\(String(grapheme).debugDescription)")
      }
      // Each grapheme is no longer than the stream-safe limit (and a ZWNJ).
      #expect(initials.unicodeScalars.count <= 2 * 31 + 1)
    }
  }

  @Test func textNeverCarriesControlsAndNoLabelIsEmpty() async {
    await propertyCheck(count: 400, input: Gen<UnsentMessage>.message, Gen<FormattingContext>.context) {
      message, context in
      let row = MessageMapper(context: context).map(message.sent(relativeTo: context.now))
      for (field, text) in [
        ("title", row.title), ("date", row.date), ("message", row.message), ("initials", row.initials),
      ] {
        let offending = text.unicodeScalars.filter(isControlOrBidiControl)
        #expect(
          offending.isEmpty,
          "\(field) \(text.debugDescription) carries \(offending.map { String($0.value, radix: 16) })")
      }
      for (field, text) in [("title", row.title), ("message", row.message)] {
        // One line: single spaces between other characters, trimmed.
        #expect(
          !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("  "), "\(field) \(text.debugDescription)")
        #expect(
          !text.unicodeScalars.contains { $0 != " " && $0.properties.isWhitespace }, "\(field) \(text.debugDescription)"
        )
      }
      #expect(!row.title.isEmpty)
      #expect(!row.date.isEmpty)
      #expect(!row.initials.isEmpty)
      if let limit = context.previewLength {
        #expect(row.message.count <= limit, "\(row.message.debugDescription) for \(limit)")
      }
    }
  }

  @Test func aLabelExpiresAfterNowAndHoldsUntilThen() async {
    await propertyCheck(count: 300, input: Gen<Double>.secondsFromNow, Gen<FormattingContext>.context) {
      seconds, context in
      let mapper = MessageMapper(context: context)
      let message = MessageAPIModel(id: .integer(1), updateDate: context.now.addingTimeInterval(seconds))
      let row = mapper.map(message)
      guard let expiry = row.dateValidUntil else { return }
      #expect(expiry > context.now, "expires at \(expiry), now \(context.now) in \(context.timeZone.identifier)")
      // The same label until it expires. (At the expiry it is worked out
      // again; a weekday stays the same weekday for five midnights.)
      if expiry.timeIntervalSince(context.now) > 0.001 {
        let justBefore = MessageMapper(context: context.now(expiry.addingTimeInterval(-0.001))).map(message)
        #expect(justBefore.date == row.date, "\(row.date) became \(justBefore.date) before \(expiry)")
      }
    }
  }

  @Test func theSameInputAndContextGiveTheSameBytes() async {
    await propertyCheck(count: 150, input: Gen<UnsentMessage>.message.array(of: 0...6), Gen<FormattingContext>.context)
    { messages, context in
      let sent = messages.map { $0.sent(relativeTo: context.now) }
      let first = InboxEncoder(layout: .compact).encode(MessageMapper(context: context).map(sent))
      // Another mapper, and the messages one at a time.
      let second = InboxEncoder(layout: .compact).encode(sent.map(MessageMapper(context: context).map))
      #expect(first == second)
      // The pipelined formatter writes what decoding, mapping and encoding
      // the same payload writes, run after run.
      let payload = InboxTestPayload.bytes(of: sent)
      let decoded = InboxEncoder(layout: .compact).encode(
        MessageMapper(context: context).map(try InboxDecoder().decode(payload)))
      for _ in 0..<2 {
        var piped: [UInt8] = []
        try InboxFormatter(context: context).format(payload) { piped += $0 }
        #expect(piped == decoded)
      }
    }
  }
}

// MARK: Generators

/// A message before it is sent: everything but the date, which is the
/// context's now moved by `secondsFromNow`.
struct UnsentMessage: Sendable, CustomStringConvertible {
  var id: MessageID
  var firstname: String
  var lastname: String
  var text: String
  var phone: String
  var secondsFromNow: Double
  var unreadCount: Int64

  func sent(relativeTo now: Date) -> MessageAPIModel {
    MessageAPIModel(
      id: id, firstname: firstname, lastname: lastname, message: text, phoneNumber: .init(international: phone),
      updateDate: now.addingTimeInterval(secondsFromNow), unreadCount: unreadCount)
  }

  var description: String {
    "\(id) \(firstname.debugDescription) \(lastname.debugDescription) \(text.debugDescription) \(phone.debugDescription) \(secondsFromNow)s"
  }
}

extension Gen where Value == String {
  /// Pieces names and texts are made of: letters of many scripts, digits,
  /// emoji, marks, and what must never reach a row (controls, bidi
  /// controls, odd whitespace).
  static let pieces: [String] = [
    // Latin, Turkish, Greek, Cyrillic, Georgian, with and without marks.
    "Alexander", "o'brien", "Émile", "e\u{301}", "ilker", "ışık", "İ", "ß", "ǅ", "άννα", "Ωμέγα", "Пётр", "ნინო",
    // Right to left.
    "مريم", "أحمد", "עִברִית", "דוד", "ܫܠܡܐ", "ߒߞߏ",
    // Indic, Thai, Lao: conjuncts, vowel signs, vowels written first.
    "श्रीनिवास", "क्ष", "মেহতা", "เอก", "ใจดี", "ແກ້ວ",
    // Han, Kana, Hangul.
    "王", "小明", "山田", "太郎", "김민준", "カタカナ", "ひらがな",
    // Digits of several scripts, symbols, punctuation.
    "007", "٣", "!!!", "***", "(", ")", "-", "+33 6 45", "…",
    // Emoji: ZWJ sequences, flags, keycaps, skin tones, text style.
    "👨‍👩‍👧‍👦", "🇫🇷", "1️⃣", "👍🏽", "❤️", "🏳️‍🌈",
    // Whitespace of every kind.
    " ", "  ", "\t", "\n", "\r\n", "\u{A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{85}", "\u{1680}",
    // Controls: C0, DEL, C1 (the 8-bit CSI and OSC), escape sequences.
    "\u{0}", "\u{7}", "\u{1B}[2J", "\u{1B}]0;title\u{7}", "\u{7F}", "\u{9B}31m", "\u{9D}",
    // Bidi controls and marks, zero-width and format characters.
    "\u{202E}", "\u{202D}", "\u{202A}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}", "\u{200F}",
    "\u{200B}", "\u{200C}", "\u{200D}", "\u{FEFF}", "\u{61C}",
    // Stacked marks, a private-use character, an unassigned one.
    "Z\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}\u{36B}", "\u{E000}", "\u{50000}",
  ]

  /// A name or a text: up to eight pieces.
  static var name: Generator<String, some SendableSequenceType> {
    anyOf(pieces).array(of: 0...8).map { $0.joined() }
  }

  static let localeNames = [
    "en-US", "en-GB", "fr-FR", "de-DE", "tr-TR", "az-AZ", "el-GR", "ru-RU", "ka-GE", "ar-EG", "he-IL", "fa-IR",
    "hi-IN", "th-TH", "ja-JP", "zh-Hans-CN", "ko-KR", "sv-SE", "en-US-u-hc-h23", "en_US_POSIX",
  ]

  static var localeName: Generator<String, some SendableSequenceType> { anyOf(localeNames) }
}

extension Gen where Value == FormattingContext {
  /// Zones with and without DST, with half- and quarter-hour offsets, and
  /// with a skipped day (Apia, 30 December 2011).
  static let timeZones = [
    "UTC", "Europe/Paris", "Europe/London", "America/New_York", "America/Sao_Paulo", "America/St_Johns",
    "Australia/Lord_Howe", "Pacific/Apia", "Pacific/Chatham", "Asia/Kathmandu", "Asia/Kolkata", "Asia/Tehran",
    "Africa/Casablanca", "Pacific/Kiritimati",
  ].map { TimeZone(identifier: $0)! }

  /// Instants near which labels change: DST transitions, the skipped day, midnights.
  static let edges: [TimeInterval] = [
    1_648_342_800,  // 2022-03-27 01:00 UTC, Paris springs forward
    1_667_091_600,  // 2022-10-30 01:00 UTC, Paris falls back
    1_541_300_400,  // 2018-11-04 03:00 UTC, São Paulo skips midnight
    1_325_239_200,  // 2011-12-30 10:00 UTC, Apia skips the day
    1_643_583_600,  // 2022-01-31 00:00 Paris
    1_704_067_200,  // 2024-01-01 00:00 UTC
  ]

  static var context: Generator<FormattingContext, some SendableSequenceType> {
    zip(
      Gen<String>.localeName, anyOf(timeZones), Gen<Int>.int(in: 0...2), Gen<Int>.int(in: 1...40).optional,
      Gen<Bool>.bool, anyOf(edges), Gen<Int>.int(in: -3 * 86_400...3 * 86_400),
      Gen<Int>.int(in: 1_262_304_000...1_893_456_000)
    ).map { locale, timeZone, cycle, previewLength, nearEdge, edge, jitter, anyInstant in
      FormattingContext(
        now: Date(timeIntervalSince1970: nearEdge ? edge + Double(jitter) : Double(anyInstant)),
        locale: Locale(identifier: locale),
        timeZone: timeZone, hourCycle: [nil, HourCycle.twelveHour, .twentyFourHour][cycle], previewLength: previewLength
      )
    }
  }
}

extension Gen where Value == Double {
  /// Within 400 days either way, to the millisecond.
  static var secondsFromNow: Generator<Double, some SendableSequenceType> {
    Gen<Int>.int(in: -400 * 86_400_000...400 * 86_400_000).map { Double($0) / 1000 }
  }
}

extension Gen where Value == UnsentMessage {
  /// A message whose id is an integer, a short ASCII string, or a text of
  /// any of the pieces (escapes, controls and non-ASCII in the payload).
  static var message: Generator<UnsentMessage, some SendableSequenceType> {
    zip(
      Gen<String>.name, Gen<String>.name, Gen<String>.name, Gen<String>.name, Gen<Double>.secondsFromNow,
      Gen<Int64>.int64(in: -2...1_000), Gen<Int64>.int64(in: .min ... .max), Gen<Int>.int(in: 0...2), Gen<String>.name
    ).map { firstname, lastname, text, phone, seconds, unread, id, idKind, idText in
      let id: MessageID =
        switch idKind {
        case 0: .integer(id)
        case 1: .string(String(id, radix: 36))
        default: .string(idText)
        }
      return UnsentMessage(
        id: id, firstname: firstname, lastname: lastname, text: text, phone: phone, secondsFromNow: seconds,
        unreadCount: unread)
    }
  }
}

// MARK: Helpers

/// One of `values`, at random.
private func anyOf<Value: Sendable>(_ values: [Value]) -> Generator<Value, some SendableSequenceType> {
  Gen<Value?>.element(of: values).map { $0! }
}

/// Control characters (Cc), line and paragraph separators, and bidi
/// embeddings, overrides and isolates.
private func isControlOrBidiControl(_ scalar: Unicode.Scalar) -> Bool {
  switch (scalar.properties.generalCategory, scalar.value) {
  case (.control, _), (.lineSeparator, _), (.paragraphSeparator, _), (_, 0x202A...0x202E), (_, 0x2066...0x2069): true
  default: false
  }
}

/// Messages written back as a payload, to run them through the formatter.
enum InboxTestPayload {
  static func bytes(of messages: [MessageAPIModel]) -> [UInt8] {
    let items = messages.map { message -> [String: Any] in
      let id: Any =
        switch message.id {
        case .integer(let value): NSNumber(value: value)
        case .string(let value): value
        }
      return [
        "id": id, "firstname": message.firstname, "lastname": message.lastname, "message": message.message,
        "phone_number": ["international": message.phoneNumber.international],
        "update_date": rfc3339(message.updateDate), "unread_count": NSNumber(value: message.unreadCount),
      ]
    }
    return Array(try! JSONSerialization.data(withJSONObject: ["items": items]))
  }

  /// The payload with each string escaped only where JSON needs it (`"`,
  /// `\`, controls), so that the formatter reads the other texts as they lie
  /// in the input. A display name takes the first name's place.
  static func plainBytes(of messages: [MessageAPIModel]) -> [UInt8] {
    func string(_ text: String) -> String {
      var escaped = "\""
      for scalar in text.unicodeScalars {
        switch scalar {
        case "\"", "\\": escaped += "\\" + String(scalar)
        case _ where scalar.value < 0x20: escaped += String(format: "\\u%04x", scalar.value)
        default: escaped.unicodeScalars.append(scalar)
        }
      }
      return escaped + "\""
    }
    let items = messages.map { message in
      let id =
        switch message.id {
        case .integer(let value): String(value)
        case .string(let value): string(value)
        }
      return
        #"{"id":\#(id),"firstname":\#(string(message.displayName ?? message.firstname)),"lastname":\#(string(message.lastname)),"#
        + #""message":\#(string(message.message)),"phone_number":{"international":\#(string(message.phoneNumber.international))},"#
        + #""update_date":"\#(rfc3339(message.updateDate))","unread_count":\#(message.unreadCount)}"#
    }
    return Array(("{\"items\":[" + items.joined(separator: ",") + "]}").utf8)
  }

  private static func rfc3339(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }
}
