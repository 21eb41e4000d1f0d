import Foundation
import Testing

@testable import InboxFormat

@Suite struct DecodingLimitTests {
  typealias Fixture = DecodingFixture

  static let maximumDepth = 512

  @Test func threeHundredThousandOpenBracketsFailCleanly() throws {
    let bytes = [UInt8](repeating: UInt8(ascii: "["), count: 300_000)
    let error = Fixture.error(decoding: bytes)
    // The 513th bracket (offset 512) is one level too many.
    #expect(
      error
        == .syntax(
          reason: "nesting deeper than 512 levels", expected: "fewer nested arrays and objects",
          location: InputLocation(line: 1, column: 513, byteOffset: 512)))
  }

  @Test func deepObjectsInAnUnknownKeyFailCleanly() throws {
    let prefix = #"{"items":[{"id":1,"x":"#
    let bytes = Array(prefix.utf8) + Array(String(repeating: #"{"a":"#, count: 300_000).utf8)
    guard case .syntax(let reason, _, let location) = Fixture.error(decoding: bytes) else {
      Issue.record("expected a syntax error")
      return
    }
    #expect(reason == "nesting deeper than 512 levels")
    // Three levels are open (payload, items, message); the value's objects
    // start at level 4, so the 510th of them is level 513.
    #expect(location.byteOffset == prefix.utf8.count + 509 * 5)
  }

  /// A bare array holding one message whose unknown key nests `depth` arrays.
  static func nestedMessage(depth: Int) -> [UInt8] {
    let open = String(repeating: "[", count: depth)
    let close = String(repeating: "]", count: depth)
    return Array(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z","x":\#(open)\#(close)}]"#.utf8)
  }

  @Test func nestingUpToTheLimitIsFine() throws {
    // The array and the message take two levels, leaving 510.
    #expect(try InboxDecoder().decode(Self.nestedMessage(depth: Self.maximumDepth - 2)).count == 1)
    guard case .syntax(let reason, _, _) = Fixture.error(decoding: Self.nestedMessage(depth: Self.maximumDepth - 1))
    else {
      Issue.record("expected a syntax error")
      return
    }
    #expect(reason == "nesting deeper than 512 levels")
  }

  @Test func deepNestingInsideAStringIsJustText() throws {
    let text = String(repeating: "[{", count: 100_000)
    let json = "[" + Fixture.message(id: "1", extra: #","message":"\#(text)""#) + "]"
    #expect(try Fixture.decode(json)[0].message == text)
  }

  /// A 50 MB text mixing ASCII with two-, three- and four-byte scalars.
  static let hugeUnit = "Hello, wörld – 你好 😀 \u{1F44D}\u{1F3FD}! This line is mostly plain ASCII text. "
  static let hugeRepetitions = 50_000_000 / hugeUnit.utf8.count + 1
  static let hugeText = String(repeating: hugeUnit, count: hugeRepetitions)
  static let hugeBytes = Array(hugeText.utf8)

  @Test func fiftyMegabyteMessage() throws {
    let bytes =
      Array(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z","message":""#.utf8) + Self.hugeBytes + Array(#""}]"#.utf8)
    let messages = try InboxDecoder().decode(bytes)
    #expect(messages.count == 1)
    #expect(messages[0].message == Self.hugeText)
  }

  @Test func fiftyMegabyteUnknownValue() throws {
    let bytes =
      Array(#"{"items":[{"id":1,"blob":""#.utf8) + Self.hugeBytes
      + Array(#"","update_date":"2022-01-31T08:45:33Z","message":"after"}]}"#.utf8)
    let messages = try InboxDecoder().decode(bytes)
    #expect(messages.map(\.message) == ["after"])
  }

  @Test func longStringWithManyEscapes() throws {
    // 4.5 MB holding a million escapes: the escape path stays linear too.
    let escaped = Array(String(repeating: #"a\n\u00e9"#, count: 500_000).utf8)
    let bytes =
      Array(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z","message":""#.utf8) + escaped + Array(#""}]"#.utf8)
    let message = try InboxDecoder().decode(bytes)[0].message
    #expect(message == String(repeating: "a\né", count: 500_000))
  }

  @Test func invalidByteAtTheEndOfAHugeStringIsLocated() throws {
    let prefix = #"[{"id":1,"message":""#
    let bytes = Array(prefix.utf8) + Self.hugeBytes + [0xFF] + Array(#""}]"#.utf8)
    guard case .syntax(let reason, _, let location) = Fixture.error(decoding: bytes) else {
      Issue.record("expected a syntax error")
      return
    }
    #expect(reason == "invalid UTF-8: invalid byte 0xFF")
    #expect(location.byteOffset == prefix.utf8.count + Self.hugeBytes.count)
    #expect(location.line == 1)
    #expect(location.column == 1 + prefix.count + Self.hugeUnit.unicodeScalars.count * Self.hugeRepetitions)
  }
}
