import SmallCases
import Testing

@testable import InboxFormatSupport

/// How values from outside appear in messages (``quoted(_:limit:)``).
@Suite struct QuotingTests {
  @Test(arguments: [
    ("fr-FR", #""fr-FR""#),
    ("a\u{1B}[2Jb", #""a\u{1B}[2Jb""#),
    ("say \"hi\" \\", #""say \"hi\" \\""#),
    ("\u{202E}abc", #""\u{202E}abc""#),
    ("one\u{2028}two", #""one\u{2028}two""#),
    // A combining mark stays on the character of the value it follows…
    ("e\u{301}te\u{301}", "\"e\u{301}te\u{301}\""),
    // …and is escaped where it would sit on the opening quote, an escape or another escaped mark.
    ("\u{301}a", #""\u{301}a""#),
    ("\u{301}\u{302}a", #""\u{301}\u{302}a""#),
    ("\u{7}\u{301}", #""\u{7}\u{301}""#),
    ("\"\u{301}", #""\"\u{301}""#),
    ("\u{20DD}", #""\u{20DD}""#),
  ])
  func aValueIsOneVisibleLine(value: String, shown: String) {
    #expect(quoted(value) == shown)
  }

  /// Each line starts with its quote as a character of its own, whatever the value.
  @Test func theOpeningQuoteIsACharacterOfItsOwn() {
    for value in ["\u{301}x", "\u{903}", "\u{20DD}", "\u{1F3FB}"] {
      #expect(quoted(value).first == "\"", "\(value.unicodeScalars.map(\.value))")
    }
  }

  @Test func aLongValueIsCut() {
    #expect(quoted(String(repeating: "x", count: 61)) == "\"" + String(repeating: "x", count: 60) + "…\"")
    #expect(quoted(String(repeating: "\u{301}", count: 3), limit: 2) == #""\u{301}\u{301}…""#)
  }

  @Test func aFileNameKeepsItsStartAndEnd() {
    #expect(quoted(bytes: Array("\u{301}in.json".utf8)) == #""\u{301}in.json""#)
    #expect(quoted(bytes: [0x61, 0xFF, 0xCC, 0x81]) == #""a\x{FF}\u{301}""#)
    #expect(quoted(bytes: Array("a\u{301}".utf8)) == "\"a\u{301}\"")
  }

  /// The shortcut for plain ASCII gives what the scalar rule gives, for
  /// every string of up to three of these scalars (plain, quote, backslash,
  /// the ends of printable ASCII, controls, a letter and a combining mark
  /// outside ASCII) and limits below, at and above its length.
  @Test func plainASCIIIsQuotedAsByTheRule() {
    let strings = everyString(of: ["a", "\"", "\\", " ", "~", "\u{7F}", "\u{1B}", "é", "\u{301}"], upTo: 3)
    for string in strings {
      for limit in [0, 1, 2, 3, 60] {
        #expect(
          quoted(string, limit: limit) == quotedScalarByScalar(string, limit: limit),
          "\(string.debugDescription) \(limit)")
      }
    }
    #expect(strings.count == 1 + 9 + 81 + 729)
  }
}
