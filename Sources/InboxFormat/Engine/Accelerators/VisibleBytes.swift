/// ``hasVisibleCharacter(_:)`` of a name's UTF-8 bytes: most names start
/// with a printable ASCII character, which is seen, and answers at once;
/// the others are decoded scalar by scalar, without making a string.
func hasVisibleCharacter(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
  if let first = name.first, first > 0x20, first < 0x7F { return true }
  return UTF8Scalars(bytes: name).contains(where: isVisibleInNames)
}

/// ``isVisible(_:)``, without Unicode's property tables for the blocks
/// most names are written in. Below U+1100 only the scalars listed first are
/// whitespace or default-ignorable, and U+3400–U+9FFF (the CJK ideographs
/// of the basic plane) and the Hangul syllables (U+AC00–U+D7A3) hold none:
/// their answer is known. Every other scalar is asked of the rule.
/// `NameBytesTests` checks every scalar against the rule, so a Unicode
/// version that changed one of these answers fails it.
@inline(__always)
func isVisibleInNames(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x09...0x0D, 0x20, 0x85, 0xA0, 0xAD, 0x34F, 0x61C: false
  case 0..<0x1100, 0x3400..<0xA000, 0xAC00..<0xD7A4: true
  default: isVisible(scalar)
  }
}
