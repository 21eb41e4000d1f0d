// The avatar's colour: one of eight, the same for the same id everywhere.

/// The colour index, 0 to 7, of a conversation's id: an integer id modulo 8
/// (counted up from the next lower multiple of 8, so 0 to 7 for negative
/// ids too); a string id by FNV-1a 32-bit over its UTF-8 bytes, modulo 8.
///
/// ```swift
/// avatarColor(of: .integer(1))       // 1
/// avatarColor(of: .integer(-1))      // 7
/// avatarColor(of: .string("c0ffee")) // 0: FNV-1a 32 of "c0ffee" is 0xEFF53EF0
/// ```
func avatarColor(of id: MessageID) -> Int {
  switch id {
  case .integer(let value):
    return Int(value & 7)  // two's complement: the floor modulus of 8
  case .string(let value):
    var hash: UInt32 = 0x811C_9DC5
    for byte in value.utf8 {
      hash ^= UInt32(byte)
      hash &*= 0x0100_0193
    }
    return Int(hash % 8)
  }
}
