import Foundation
import InboxFormat

/// A deterministic inbox payload shaped like the peers' benchmark corpus
/// (`make-corpus.py`): names in many scripts, missing and null fields,
/// offsets and fractional seconds, dates over ~400 days before 2022-01-31 12:00 UTC.
enum Corpus {
  static let now = Date(timeIntervalSince1970: 1_643_630_400)  // 2022-01-31T12:00:00Z

  static let context = FormattingContext(
    now: now, locale: Locale(identifier: "en-US"), timeZone: TimeZone(identifier: "Europe/Paris")!)

  /// The payload `{"items":[…]}` of `count` messages, as UTF-8 bytes.
  static func payload(count: Int) -> [UInt8] {
    var generator = SplitMix64(seed: 20_220_131)
    var text = #"{"items":["#
    for index in 0..<count {
      if index > 0 { text += "," }
      text += message(id: index + 1, using: &generator)
    }
    text += "]}\n"
    return Array(text.utf8)
  }

  private static let firstNames = [
    "Alexander", "Jessica", "Georges", "Émile", "Zoë", "Ilker", "Мария", "Σωκράτης", "محمد", "דוד", "小明", "민준",
    "अनिल", "Jean-Luc", "(Alex)", "O'Brien", "", "  Anna ", "👨‍👩‍👧‍👦 Family", "Łukasz", "Ægir", "José", "Nguyễn", "Søren",
  ]
  private static let lastNames = [
    "Anderson", "Pitt", "", "Zola", "Ødegaard", "İnan", "Иванова", "Παπαδόπουλος", "العلي", "כהן", "王", "김", "शर्मा",
    "Picard", "Smith", "", "van Gogh", "Müller",
  ]
  private static let words = """
    hello how are you this is a short message with some more words to make the preview long enough to need \
    truncation in a narrow list row ça va très bien привет как дела 你好 😀 👍🏽 see you tomorrow at the café
    """.split(separator: " ").map(String.init)

  private static func message(id: Int, using generator: inout SplitMix64) -> String {
    var fields = [#""id":\#(id)"#]
    if generator.unit() > 0.03 {
      fields.append(#""firstname":\#(quoted(firstNames.randomElement(using: &generator)!))"#)
    }
    if generator.unit() > 0.05 {
      fields.append(
        generator.unit() > 0.02
          ? #""lastname":\#(quoted(lastNames.randomElement(using: &generator)!))"# : #""lastname":null"#)
    }
    let wordCount = Int.random(in: 1...40, using: &generator)
    fields.append(
      #""message":\#(quoted((0..<wordCount).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")))"#
    )
    if generator.unit() > 0.05 {
      let digits = (0..<4).map { _ in String(format: "%02d", Int.random(in: 0...99, using: &generator)) }.joined(
        separator: " ")
      fields.append(#""phone_number":{"international":"+33 6 \#(digits)"}"#)
    }
    let age = Int(pow(generator.unit(), 3) * 400 * 86_400) - Int.random(in: -600...0, using: &generator)
    let instant = Date(timeIntervalSince1970: now.timeIntervalSince1970 - Double(age))
    let fractional = generator.unit() < 0.2
    let offsetHours = generator.unit() < 0.3 ? [-5, 1, 2, 9].randomElement(using: &generator)! : 0
    let style = Date.ISO8601FormatStyle(
      timeZoneSeparator: .colon, includingFractionalSeconds: fractional,
      timeZone: TimeZone(secondsFromGMT: offsetHours * 3600)!)
    fields.append(#""update_date":"\#(instant.formatted(style))""#)
    if generator.unit() > 0.04 {
      fields.append(#""unread_count":\#([0, 0, 0, 1, 2, 10, 120].randomElement(using: &generator)!)"#)
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// The same kind of messages as a Sendbird channel list
  /// (`my_group_channels`, `--map sendbird --viewer me`): the other member's
  /// nickname as the display name, the last message's Unix milliseconds.
  static func sendbirdPayload(count: Int) -> [UInt8] {
    var generator = SplitMix64(seed: 20_220_131)
    var channels: [String] = []
    for index in 0..<count {
      let name = [firstNames.randomElement(using: &generator)!, lastNames.randomElement(using: &generator)!]
        .filter { !$0.isEmpty }.joined(separator: " ")
      let wordCount = Int.random(in: 1...40, using: &generator)
      let text = (0..<wordCount).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
      let age = Int(pow(generator.unit(), 3) * 400 * 86_400)
      let milliseconds = (Int(now.timeIntervalSince1970) - age) * 1000 + Int.random(in: 0...999, using: &generator)
      let digits = (0..<4).map { _ in String(format: "%02d", Int.random(in: 0...99, using: &generator)) }.joined(
        separator: " ")
      let unread = [0, 0, 0, 1, 2, 10, 120].randomElement(using: &generator)!
      channels.append(
        #"{"channel_url":"sendbird_group_channel_\#(index)","name":"","is_distinct":true,"unread_message_count":\#(unread),"#
          + #""last_message":{"message_id":\#(index),"type":"MESG","message":\#(quoted(text)),"created_at":\#(milliseconds)},"#
          + #""members":[{"user_id":"me","nickname":"Me"},{"user_id":"u\#(index)","nickname":\#(quoted(name)),"#
          + #""profile_url":"","phone_number":"+33 6 \#(digits)"}]}"#)
    }
    return Array(("{\"channels\":[" + channels.joined(separator: ",") + "],\"next\":\"\"}\n").utf8)
  }

  private static func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }
}

/// A small, fast, seedable generator, so the corpus is the same on every run.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
