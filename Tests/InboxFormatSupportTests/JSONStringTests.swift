import Foundation
import InboxFormatSupport
import Testing

/// The one JSON string rule (``jsonStringLiteral(_:)``): what it writes
/// reads back as the same string, and only `"`, `\` and the C0 controls are
/// escaped.
@Suite struct JSONStringTests {
  static let pieces = [
    "a", "\"", "\\", "/", "\u{0}", "\n", "\r", "\t", "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{2028}", "é", "😀",
    "\u{202E}", " ",
  ]

  /// Every string of up to two pieces.
  static let texts = [""] + pieces + pieces.flatMap { first in pieces.map { first + $0 } }

  @Test func literalsReadBackAsTheirStrings() throws {
    for text in Self.texts {
      let literal = jsonStringLiteral(text)
      let read = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed) as? String
      #expect(read == text, "\(literal)")
      #expect(!literal.unicodeScalars.contains { $0.value < 0x20 }, "\(literal)")
      #expect(literal.contains("/") == text.contains("/") && literal.contains("\u{7F}") == text.contains("\u{7F}"))
    }
  }

  @Test(arguments: [
    ("\"", #""\"""#), ("\\", #""\\""#), ("\n", #""\n""#), ("\r", #""\r""#), ("\t", #""\t""#),
    ("\u{0}", #""\u0000""#), ("\u{1F}", #""\u001f""#), ("\u{1B}", #""\u001b""#), ("\u{7F}", "\"\u{7F}\""),
    ("/é", "\"/é\""),
  ])
  func eachEscape(text: String, literal: String) {
    #expect(jsonStringLiteral(text) == literal)
  }

  /// Exactly the bytes below 0x20, `"` and `\` are escaped.
  @Test func theEscapedBytes() {
    let escaped = (0...255).map(UInt8.init).filter(isEscapedInJSON)
    #expect(escaped == Array(0..<0x20) + [UInt8(ascii: "\""), UInt8(ascii: "\\")])
  }
}
