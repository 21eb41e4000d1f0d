import CInboxBytes
import Foundation
import Testing

@testable import InboxFormat

/// The one-line rule answered from bytes (Engine/Accelerators/LineBytes.swift,
/// and the C kernels under it) against the rule itself (`lineRole(of:)`,
/// `singleLine(_:)`): over every scalar, every byte at every place of a
/// block, and random texts of many scripts, with the engine's kernels and
/// with the portable and SSE2 kernels by name.
@Suite struct LineBytesTests {
  /// Every Unicode scalar, in the order of their values.
  static let everyScalar: [Unicode.Scalar] = (0...0x10FFFF).compactMap(Unicode.Scalar.init(_:))

  @Test func theRoleOfEveryScalarFromItsBytesIsTheRule() {
    var disagreements: [String] = []
    for scalar in Self.everyScalar {
      let bytes = Array(String(scalar).utf8)
      let (role, length) = bytes.withUnsafeBufferPointer { lineRole(in: $0, at: 0) }
      if role != lineRole(of: scalar) || length != bytes.count { disagreements.append(String(scalar.value, radix: 16)) }
    }
    #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20))")
  }

  /// Each scalar alone, between letters, beside a space and at the seams of
  /// the 16-byte blocks: the byte check says "already one clean line"
  /// exactly when the rule leaves the text as it is, with every kernel.
  @Test(arguments: [0, 1, 2, 3, 4])
  func everyScalarInEveryPlace(context: Int) {
    let (before, after): (String, String) =
      switch context {
      case 0: ("", "")
      case 1: ("a", "b")
      case 2: ("a ", " b")
      case 3: (String(repeating: "x", count: 14), "")  // the scalar crosses the first block's end
      default: (String(repeating: "y", count: 7), String(repeating: "z", count: 20))
      }
    var disagreements: [String] = []
    for scalar in Self.everyScalar {
      let text = before + String(scalar) + after
      if !Self.kernelsAgreeWithTheRule(on: text) { disagreements.append(String(scalar.value, radix: 16)) }
    }
    #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20)) after \(before.debugDescription)")
  }

  /// Random texts made of the pieces names and messages are made of, at
  /// every length up to 48 bytes and longer.
  @Test func randomTextsOfManyScripts() {
    var random = SplitMix(seed: 0x1ABE_11ED)
    let pieces = Self.pieces
    for round in 0..<20_000 {
      var text = ""
      let count = random.next(below: round % 7 == 0 ? 40 : 6)
      for _ in 0..<count { text += pieces[random.next(below: pieces.count)] }
      #expect(Self.kernelsAgreeWithTheRule(on: text), "\(text.debugDescription)")
      #expect(cleanLine(text) == singleLine(text), "\(text.debugDescription)")
      #expect(
        text.utf8.withContiguousStorageIfAvailable { String(decoding: cleanedLine($0), as: UTF8.self) }
          == singleLine(text))
    }
  }

  /// The two kernels give the same masks for every byte at every lane of a
  /// block, and for random blocks.
  @Test func portableAndSSE2MasksAgree() {
    #if arch(x86_64) || arch(i386)
      var block = [UInt8](repeating: 0x41, count: 16)
      var random = SplitMix(seed: 7)
      for round in 0..<(256 * 16 + 20_000) {
        if round < 256 * 16 {
          block = [UInt8](repeating: 0x41, count: 16)
          block[round % 16] = UInt8(round / 16)
        } else {
          for index in 0..<16 { block[index] = UInt8(random.next(below: 256)) }
        }
        block.withUnsafeBufferPointer { bytes in
          let base = bytes.baseAddress!
          #expect(inbox_string_stops16_portable(base) == inbox_string_stops16_sse2(base), "\(block)")
          var portableSpaces: UInt32 = 0
          var sse2Spaces: UInt32 = 0
          #expect(inbox_line_stops16_portable(base, &portableSpaces) == inbox_line_stops16_sse2(base, &sse2Spaces))
          #expect(portableSpaces == sse2Spaces, "\(block)")
        }
      }
    #endif
  }

  /// Whether the engine's, the portable and the SSE2 one-line checks all say
  /// what the rule says of `text`.
  static func kernelsAgreeWithTheRule(on text: String) -> Bool {
    let expected = singleLine(text) == text
    var text = text
    return text.withUTF8 { bytes in
      var agree = isSingleLine(bytes) == expected && isSingleLine(bytes, kernel: PortableKernel.self) == expected
      #if arch(x86_64) || arch(i386)
        agree = agree && isSingleLine(bytes, kernel: SSE2Kernel.self) == expected
      #endif
      return agree
    }
  }

  /// Letters of many scripts, marks, emoji, and everything the rule removes
  /// or folds: controls, C1, bidi controls, every kind of space.
  static let pieces: [String] = [
    "a", "Z", "é", "e\u{301}", "ß", "Ω", "Ж", "ნ", "م", "ש", "श्री", "เ", "山", "田", "한", "😀", "👨‍👩‍👧‍👦", "1️⃣", "\u{200B}",
    "\u{3164}", " ", "  ", "\t", "\n", "\r\n", "\u{0}", "\u{7}", "\u{1B}", "\u{7F}", "\u{80}", "\u{85}", "\u{9B}",
    "\u{A0}", "\u{1680}", "\u{2000}", "\u{2009}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202A}", "\u{202E}",
    "\u{202F}", "\u{205F}", "\u{2066}", "\u{2069}", "\u{3000}", "\u{FEFF}", "!", "\"", "\\", "0",
  ]
}
