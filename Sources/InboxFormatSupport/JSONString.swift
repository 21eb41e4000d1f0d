// The one rule of how every JSON string is written: the rows, the service's
// problem documents and log lines, the preview's events, `check`'s expected
// rows. The row writer's word-at-a-time scan accelerates `isEscapedInJSON`
// and writes each escape with `appendJSONEscape`; a test holds the two equal.

/// `value` as a JSON string literal: `"` and `\` escaped, the controls
/// below U+0020 as `\n`, `\r`, `\t` or `\u00XX`, everything else as it is
/// (UTF-8, `/` and DEL included).
///
/// ```swift
/// jsonStringLiteral("a\"b\n")  // "\"a\\\"b\\n\""
/// ```
public func jsonStringLiteral(_ value: String) -> String {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(value.utf8.count + 2)
  bytes.append(UInt8(ascii: "\""))
  for byte in value.utf8 {
    if isEscapedInJSON(byte) {
      appendJSONEscape(for: byte) { bytes.append($0) }
    } else {
      bytes.append(byte)
    }
  }
  bytes.append(UInt8(ascii: "\""))
  return String(decoding: bytes, as: UTF8.self)
}

/// Whether a UTF-8 byte is written escaped inside a JSON string literal:
/// below 0x20, `"` or `\`. Bytes of multi-byte sequences never are.
@inlinable
public func isEscapedInJSON(_ byte: UInt8) -> Bool {
  byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

/// Hands `append` the bytes of the escape of `byte`, one that
/// ``isEscapedInJSON(_:)`` says is escaped: `\"`, `\\`, `\n`, `\r`, `\t`,
/// or `\u00XX` in lowercase hex.
@inlinable
public func appendJSONEscape(for byte: UInt8, _ append: (UInt8) -> Void) {
  append(UInt8(ascii: "\\"))
  switch byte {
  case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
  case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
  case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
  case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
  default:
    append(UInt8(ascii: "u"))
    append(UInt8(ascii: "0"))
    append(UInt8(ascii: "0"))
    append(hexDigit(byte >> 4))
    append(hexDigit(byte & 0xF))
  }
}

/// The lowercase hex digit of a value below 16.
@inlinable
public func hexDigit(_ value: UInt8) -> UInt8 {
  value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}
