// The one-line rule (Rules/Line.swift) answered from UTF-8 bytes: every
// name and message goes through it, so it looks at bytes with the few
// scalars that matter spelled out, instead of asking for Unicode properties
// scalar by scalar, and a text that is already a clean line is kept as it is.

internal import CInboxBytes

/// ``singleLine(_:)``, kept as it is when already clean.
func cleanLine(_ text: String) -> String {
  // Native strings are contiguous, so this reads them in place.
  if text.utf8.withContiguousStorageIfAvailable(isSingleLine) ?? false { return text }
  var text = text
  return String(decoding: text.withUTF8(cleanedLine), as: UTF8.self)
}

/// ``lineRole(of:)`` of the scalar that starts at `index` of valid UTF-8,
/// and its length in bytes. Only a few lead bytes can start a scalar that is
/// not simply kept: the rule's whitespace and removed scalars are spelled
/// out here by their bytes.
@inline(__always)
func lineRole(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (LineRole, Int) {
  let lead = bytes[index]
  switch lead {
  case 0x09...0x0D, 0x20: return (.whitespace, 1)
  case 0x00...0x1F, 0x7F: return (.removed, 1)
  case 0x21...0x7E: return (.kept, 1)
  case 0xC2:
    // U+0080–U+009F are C1 controls (U+0085, NEXT LINE, is also whitespace); U+00A0 is a space.
    let second = bytes[index + 1]
    if second == 0x85 || second == 0xA0 { return (.whitespace, 2) }
    return (second < 0xA0 ? .removed : .kept, 2)
  case 0xE1 where bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80:
    return (.whitespace, 3)  // U+1680 OGHAM SPACE MARK
  case 0xE2:
    let scalar = 0x2000 | (UInt32(bytes[index + 1] & 0x3F) << 6) | UInt32(bytes[index + 2] & 0x3F)
    switch scalar {
    case 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F: return (.whitespace, 3)
    case 0x202A...0x202E, 0x2066...0x2069: return (.removed, 3)
    default: return (.kept, 3)
    }
  case 0xE3 where bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80:
    return (.whitespace, 3)  // U+3000 IDEOGRAPHIC SPACE
  default:
    return (.kept, utf8Length(lead: lead))
  }
}

@inline(__always)
private func utf8Length(lead: UInt8) -> Int {
  lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
}

/// Whether `bytes` is already a clean line: nothing to remove, no whitespace
/// but single ASCII spaces between other characters.
///
/// Most texts have no byte that could start a control, a bidi control or a
/// space other than U+0020, and are answered by ``inbox_plain_line_length``
/// alone. Otherwise, from the first byte it flags, sixteen bytes at a time:
/// a mask of the bytes that can start anything but a plain kept character
/// (``inbox_line_stops16``) and one of the spaces; only a flagged byte is
/// looked at as a scalar (``lineRole(in:at:)``).
func isSingleLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  isSingleLine(bytes, kernel: EngineKernel.self)
}

/// ``isSingleLine(_:)`` with the byte kernels of `kernel`.
@inline(__always)
func isSingleLine<Kernel: LineKernel>(_ bytes: UnsafeBufferPointer<UInt8>, kernel: Kernel.Type) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  let plainLength = Kernel.plainLineLength(base, bytes.count)
  if plainLength == bytes.count { return true }
  if plainLength == -1 { return false }  // SIZE_MAX: certainly not one line
  var index = plainLength
  var previousWasSpace = index > 0 && bytes[index - 1] == 0x20
  while index < bytes.count {
    let available = bytes.count - index
    var spaces: UInt32 = 0
    let stops: UInt32
    if available >= 16 {
      stops = Kernel.lineStops16(base + index, &spaces)
    } else {
      // The last few bytes, in a block padded with letters, which flag nothing.
      var padded: (UInt64, UInt64) = (0x4141_4141_4141_4141, 0x4141_4141_4141_4141)
      stops = withUnsafeMutableBytes(of: &padded) { block in
        block.baseAddress!.copyMemory(from: base + index, byteCount: available)
        return Kernel.lineStops16(block.baseAddress!.assumingMemoryBound(to: UInt8.self), &spaces)
      }
    }
    // The plain bytes before the first flagged one: no two spaces in a row,
    // inside them or across their start.
    let plain = min(stops.trailingZeroBitCount, available, 16)
    let plainSpaces = spaces & ((1 << plain) &- 1)
    if plainSpaces & (plainSpaces << 1) != 0 || (previousWasSpace && plainSpaces & 1 != 0) { return false }
    if plain > 0 { previousWasSpace = (plainSpaces >> (plain - 1)) & 1 != 0 }
    index += plain
    if plain < min(available, 16) {
      let (role, length) = lineRole(in: bytes, at: index)
      guard role == .kept else { return false }
      previousWasSpace = false
      index += length
    }
  }
  return true
}

func cleanedLine(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
  var result: [UInt8] = []
  result.reserveCapacity(bytes.count)
  var pendingSpace = false
  var index = 0
  while index < bytes.count {
    let (role, length) = lineRole(in: bytes, at: index)
    switch role {
    case .whitespace:
      pendingSpace = !result.isEmpty
    case .removed:
      break
    case .kept:
      if pendingSpace {
        result.append(0x20)
        pendingSpace = false
      }
      result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
    }
    index += length
  }
  return result
}

/// The byte kernels of the one-line check (`Sources/CInboxBytes`).
protocol LineKernel {
  static func plainLineLength(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int
  static func lineStops16(_ bytes: UnsafePointer<UInt8>, _ spaces: inout UInt32) -> UInt32
}

/// The kernels the engine runs: SSE2 on x86-64, unless forced portable.
enum EngineKernel: LineKernel {
  @inline(__always)
  static func plainLineLength(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    inbox_plain_line_length(bytes, count)
  }

  @inline(__always)
  static func lineStops16(_ bytes: UnsafePointer<UInt8>, _ spaces: inout UInt32) -> UInt32 {
    inbox_line_stops16(bytes, &spaces)
  }
}

/// The portable kernels, by name: tests run them on every machine.
enum PortableKernel: LineKernel {
  static func plainLineLength(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    inbox_plain_line_length_portable(bytes, count)
  }

  static func lineStops16(_ bytes: UnsafePointer<UInt8>, _ spaces: inout UInt32) -> UInt32 {
    inbox_line_stops16_portable(bytes, &spaces)
  }
}

#if arch(x86_64) || arch(i386)
  /// The SSE2 kernels, by name.
  enum SSE2Kernel: LineKernel {
    static func plainLineLength(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
      inbox_plain_line_length_sse2(bytes, count)
    }

    static func lineStops16(_ bytes: UnsafePointer<UInt8>, _ spaces: inout UInt32) -> UInt32 {
      inbox_line_stops16_sse2(bytes, &spaces)
    }
  }
#endif
