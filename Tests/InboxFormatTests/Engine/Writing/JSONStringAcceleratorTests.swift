import InboxFormatSupport
import Testing

@testable import InboxFormat

/// The row writer's JSON strings, eight bytes at a time, against the one
/// rule they accelerate (``jsonStringLiteral(_:)`` of InboxFormatSupport).
@Suite struct JSONStringAcceleratorTests {
  /// The word test finds an escaped byte exactly when the rule does: each
  /// byte value at each of the eight places, among bytes of every kind.
  @Test func theWordTestIsTheByteRule() {
    let fillers: [UInt8] = [0x20, 0x61, 0x7F, 0x80, 0xC3, 0xFF, 0x21, 0x5B, 0x5D, 0x23, 0x5C, 0x22, 0x00, 0x1F]
    for byte in UInt8.min...UInt8.max {
      for place in 0..<8 {
        for filler in fillers {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[place] = byte
          let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
          #expect(mayNeedEscape(word) == bytes.contains(where: isEscapedInJSON), "\(bytes)")
        }
      }
    }
    var random = SplitMix(seed: 0x1A5C)
    for _ in 0..<100_000 {
      let word = random.next()
      let bytes = withUnsafeBytes(of: word) { Array($0) }
      #expect(mayNeedEscape(word) == bytes.contains(where: isEscapedInJSON), "\(bytes)")
    }
  }

  /// Strings long and short, ASCII and not, with escapes anywhere: the row
  /// writer's bytes are the rule's.
  @Test func theRowWriterWritesTheRulesLiterals() {
    let pieces = [
      "a", "abcdefgh", "\"", "\\", "/", "\u{0}", "\n", "\u{1F}", "\u{7F}", "é", "😀", "\u{2028}", " ", "日本語",
    ]
    var random = SplitMix(seed: 0x750A)
    for _ in 0..<2_000 {
      let text = (0..<random.next(below: 24)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
      let output = ByteWriter.bytes(capacity: 16) { appendString(text, to: &$0) }
      #expect(String(decoding: output, as: UTF8.self) == jsonStringLiteral(text), "\(text)")
    }
  }
}
