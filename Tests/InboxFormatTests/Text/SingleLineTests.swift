import Testing

@testable import InboxFormat

/// The byte-level classification must agree with the Unicode properties it
/// spells out, for every scalar.
@Suite struct SingleLineUnicodeTests {
  @Test func agreesWithUnicodePropertiesForEveryScalar() {
    var mismatches: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = "a" + String(scalar) + "b"
      let expected: String
      if scalar.properties.isWhitespace {
        expected = "a b"
      } else if scalar.properties.generalCategory == .control || isBidiControl(scalar) {
        expected = "ab"
      } else {
        expected = text
      }
      if singleLine(text) != expected { mismatches.append(String(value, radix: 16)) }
    }
    #expect(mismatches.isEmpty, "U+\(mismatches.prefix(20))")
  }

  @Test func cleanStringsComeBackUnchanged() {
    for text in ["Hello world", "é 😀 你好", "a", "", "x y z"] {
      #expect(singleLine(text) == text)
    }
    for text in [" a", "a ", "a  b", "a\tb", "a\u{A0}b", "\u{3000}"] {
      #expect(singleLine(text) != text)
    }
  }
}
