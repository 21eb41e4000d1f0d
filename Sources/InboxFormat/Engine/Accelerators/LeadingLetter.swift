// An accelerator of the initial rule (`initial(of:locale:)` in
// Rules/Initials.swift), which walks grapheme clusters and asks for Unicode
// properties: a name that starts, after ASCII spaces or punctuation, with
// a letter of Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic and the other
// scripts written in two-byte UTF-8, followed by a scalar that begins a new
// cluster, has that one letter as its initial. Which two-byte scalars qualify
// is a table (`twoByteInitials`, `twoByteClusterStarts`) that a test derives
// from the standard library's own cluster breaking and the rule, for every
// one of them, so the shortcut cannot disagree with the general rule, and no
// process pays for asking it (some 5.7M instructions).

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

/// The two-byte scalars that are a letter or digit beginning an initial
/// (``beginsInitial(_:)``) and a cluster of their own between ASCII
/// letters: nothing before them joins their cluster (they are not
/// extenders or spacing marks), and they join nothing after them (they
/// are not prepended characters). Sorted, disjoint; `LeadingLetterTests`
/// derives them from the standard library's cluster breaking and the rule,
/// and prints them anew when Unicode's data moves.
let twoByteInitials: [ClosedRange<UInt32>] = [
  0x00AA...0x00AA, 0x00B2...0x00B3, 0x00B5...0x00B5, 0x00B9...0x00BA, 0x00BC...0x00BE, 0x00C0...0x00D6,
  0x00D8...0x00F6, 0x00F8...0x02C1, 0x02C6...0x02D1, 0x02E0...0x02E4, 0x02EC...0x02EC, 0x02EE...0x02EE,
  0x0370...0x0374, 0x0376...0x0377, 0x037A...0x037D, 0x037F...0x037F, 0x0386...0x0386, 0x0388...0x038A,
  0x038C...0x038C, 0x038E...0x03A1, 0x03A3...0x03F5, 0x03F7...0x0481, 0x048A...0x052F, 0x0531...0x0556,
  0x0559...0x0559, 0x0560...0x0588, 0x05D0...0x05EA, 0x05EF...0x05F2, 0x0620...0x064A, 0x0660...0x0669,
  0x066E...0x066F, 0x0671...0x06D3, 0x06D5...0x06D5, 0x06E5...0x06E6, 0x06EE...0x06FC, 0x06FF...0x06FF,
  0x0710...0x0710, 0x0712...0x072F, 0x074D...0x07A5, 0x07B1...0x07B1, 0x07C0...0x07EA, 0x07F4...0x07F5,
  0x07FA...0x07FA,
]

/// The two-byte scalars before which a cluster breaks when a letter
/// precedes them. Sorted, disjoint; derived as ``twoByteInitials`` is.
let twoByteClusterStarts: [ClosedRange<UInt32>] = [
  0x0080...0x02FF, 0x0370...0x0482, 0x048A...0x0590, 0x05BE...0x05BE, 0x05C0...0x05C0, 0x05C3...0x05C3,
  0x05C6...0x05C6, 0x05C8...0x060F, 0x061B...0x064A, 0x0660...0x066F, 0x0671...0x06D5, 0x06DD...0x06DE,
  0x06E5...0x06E6, 0x06E9...0x06E9, 0x06EE...0x0710, 0x0712...0x072F, 0x074B...0x07A5, 0x07B1...0x07EA,
  0x07F4...0x07FC, 0x07FE...0x07FF,
]

/// What the shortcut needs to know of U+0080 to U+07FF, the scalars written
/// in two bytes, by scalar.
private struct TwoByteScalars: Sendable {
  static let shared = TwoByteScalars()

  private static let first: UInt32 = 0x80
  /// Bit 0: begins an initial; bit 1: begins a cluster after a letter.
  private let flags: [UInt8]

  private init() {
    var flags = [UInt8](repeating: 0, count: Int(0x800 - Self.first))
    for range in twoByteInitials {
      for value in range { flags[Int(value - Self.first)] |= 1 }
    }
    for range in twoByteClusterStarts {
      for value in range { flags[Int(value - Self.first)] |= 2 }
    }
    self.flags = flags
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
