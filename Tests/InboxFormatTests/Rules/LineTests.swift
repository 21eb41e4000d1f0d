import Testing

@testable import InboxFormat

/// The byte-level classification must agree with the Unicode properties it
/// spells out, for every scalar.
@Suite struct SingleLineUnicodeTests {
  @Test func agreesWithUnicodePropertiesForEveryScalar() {
    var mismatches: [String] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      // The scalar lands at every offset of a 16-byte block in turn, and
      // in the short tail or a full block, as the checker reads them.
      let before = String(repeating: "a", count: Int(value % 19))
      let after = String(repeating: "b", count: Int(value % 23))
      let text = before + String(scalar) + after
      let expected: String
      if scalar.properties.isWhitespace {
        expected = before.isEmpty || after.isEmpty ? before + after : before + " " + after
      } else if scalar.properties.generalCategory == .control || isBidiControl(scalar) {
        expected = before + after
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

  /// The rule written the slow, obvious way, scalar by scalar with Unicode properties.
  func reference(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !result.isEmpty
      } else if scalar.properties.generalCategory != .control && !isBidiControl(scalar) {
        if pendingSpace { result.append(" ") }
        pendingSpace = false
        result.append(scalar)
      }
    }
    return String(result)
  }

  /// Whether `text` is already one clean line, the way ``singleLine(_:)`` asks it.
  func isClean(_ text: String) -> Bool {
    var text = text
    return text.withUTF8(isSingleLine)
  }

  /// The plain-text shortcut reads short texts as two overlapping halves
  /// and long ones by blocks of 16 with an overlapping last block: two
  /// spaces in a row must be found at every pair of places, in every length
  /// around those seams.
  @Test func twoSpacesInARowAreFoundAtEveryPlace() {
    for length in 0...40 {
      for first in 0..<max(length, 1) {
        for second in first..<max(length, 1) {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          if length > 0 { (bytes[first], bytes[second]) = (0x20, 0x20) }
          let text = String(decoding: bytes, as: UTF8.self)
          #expect(isClean(text) == (reference(text) == text), "\(text.debugDescription)")
        }
      }
    }
  }

  /// A scalar whose lead byte the shortcut flags (or, for U+0905, no longer
  /// flags) is looked at from where it stands, with a space anywhere else.
  @Test func aFlaggedScalarIsJudgedWhereverItStands() {
    let scalars = [
      "\u{1EC5}", "\u{2019}", "\u{2028}", "\u{85}", "\u{A0}", "\u{0905}", "\u{1680}", "\u{3000}", "\u{200D}",
    ]
    for length in [1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 20, 31, 32, 33, 40] {
      for place in 0..<length {
        for space in [nil] + Array(0..<length) where space != place {
          for scalar in scalars {
            var characters = [String](repeating: "a", count: length)
            characters[place] = scalar
            if let space { characters[space] = " " }
            let text = characters.joined()
            #expect(isClean(text) == (reference(text) == text), "\(text.debugDescription)")
            #expect(singleLine(text) == reference(text), "\(text.debugDescription)")
          }
        }
      }
    }
  }

  @Test func agreesWithTheObviousRuleOnRandomText() {
    let palette: [String] = [
      " ", " ", "  ", "\t", "\n", "a", "b", "Z", "0", "~", "\u{7F}", "\u{0}", "\u{85}", "\u{A0}", "é", "😀",
      "\u{202E}", "\u{2066}", "\u{3000}", "\u{200B}", "你", "abcdefgh", "a b c d e f g h i",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<20_000 {
      let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in palette.randomElement(using: &generator)! }
        .joined()
      #expect(singleLine(text) == reference(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }
}
