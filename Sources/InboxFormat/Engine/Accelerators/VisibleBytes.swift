/// ``hasVisibleCharacter(_:)`` of a name's UTF-8 bytes: most names start
/// with a printable ASCII character, which is seen, and answers at once.
func hasVisibleCharacter(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
  if let first = name.first, first > 0x20, first < 0x7F { return true }
  return hasVisibleCharacter(String(decoding: name, as: UTF8.self))
}
