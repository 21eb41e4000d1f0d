// An accelerator of the initial rule (`initial(of:locale:)` in
// Rules/Initials.swift), which walks grapheme clusters and asks for Unicode
// properties: a name that starts, after ASCII spaces or punctuation, with
// a letter of Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and the other
// scripts written in two-byte UTF-8, followed by a scalar that begins a new
// cluster, has that one letter as its initial. Which two-byte scalars qualify
// is asked of the standard library's own cluster breaking, once per process,
// so the shortcut cannot disagree with the general rule.

/// Where the initial of a name comes from, when a look at its first bytes
/// decides it.
enum LeadingLetter: Equatable {
  /// The name has no letter or digit at all (it is ASCII throughout).
  case none
  /// The initial is this scalar, alone in its cluster, title-cased.
  case scalar(UInt32)

  /// The scalar, or 0 (never a letter) for none.
  var scalarValue: UInt32 {
    switch self {
    case .none: 0
    case .scalar(let value): value
    }
  }
}

/// The initial's source for the UTF-8 `bytes` of a name, or nil when the
/// general rule has to decide (the first letter is written in three or four
/// bytes, or it shares its cluster with what follows).
func leadingLetter(of bytes: UnsafeBufferPointer<UInt8>) -> LeadingLetter? {
  var index = 0
  while index < bytes.count {
    let lead = bytes[index]
    let letter: UInt32
    let length: Int
    if lead < 0x80 {
      guard isASCIILetterOrDigit(lead) else {
        index += 1
        continue
      }
      (letter, length) = (UInt32(lead), 1)
    } else if lead >= 0xC2, lead <= 0xDF, index + 1 < bytes.count {
      let scalar = twoByteScalar(lead, bytes[index + 1])
      guard TwoByteScalars.shared.beginsInitial(scalar) else { return nil }
      (letter, length) = (scalar, 2)
    } else {
      return nil
    }
    let next = index + length
    guard next < bytes.count, bytes[next] >= 0x80 else { return .scalar(letter) }
    // Only a two-byte scalar known to start a cluster of its own ends the letter's.
    let follower = bytes[next]
    guard follower >= 0xC2, follower <= 0xDF, next + 1 < bytes.count,
      TwoByteScalars.shared.beginsCluster(twoByteScalar(follower, bytes[next + 1]))
    else { return nil }
    return .scalar(letter)
  }
  return LeadingLetter.none
}

@inline(__always)
private func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
  (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

@inline(__always)
private func twoByteScalar(_ lead: UInt8, _ continuation: UInt8) -> UInt32 {
  UInt32(lead & 0x1F) << 6 | UInt32(continuation & 0x3F)
}

/// What the shortcut needs to know of U+0080 to U+07FF, the scalars written
/// in two bytes.
private struct TwoByteScalars: Sendable {
  static let shared = TwoByteScalars()

  private static let first: UInt32 = 0x80
  /// Bit 0: begins an initial; bit 1: begins a cluster after a letter.
  private let flags: [UInt8]

  private init() {
    flags = (Self.first..<0x800).map { value in
      let scalar = Unicode.Scalar(value)!
      let text = String(scalar)
      // Nothing before it joins its cluster (it is not an extender or a
      // spacing mark), and it joins nothing after it (it is not a prepended
      // character): a cluster of its own between ASCII letters.
      let standsAlone = ("a" + text).count == 2 && (text + "a").count == 2
      let beginsCluster = ("a" + text).count == 2
      return (standsAlone && InboxFormat.beginsInitial(scalar) ? 1 : 0) | (beginsCluster ? 2 : 0)
    }
  }

  /// Whether `scalar` (a two-byte one) is a letter or digit that is a cluster by itself.
  func beginsInitial(_ scalar: UInt32) -> Bool {
    flags[Int(scalar - Self.first)] & 1 != 0
  }

  /// Whether a cluster breaks before `scalar` (a two-byte one) when a letter precedes it.
  func beginsCluster(_ scalar: UInt32) -> Bool {
    flags[Int(scalar - Self.first)] & 2 != 0
  }
}
