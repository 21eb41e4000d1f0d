import Glibc

/// Whether the `count` bytes at `first` and at `second` are the same: up to
/// sixteen by two overlapping word loads each, which stay inside the bytes.
@inline(__always)
func sameBytes(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
  func same<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) -> Bool {
    first.loadUnaligned(fromByteOffset: offset, as: Word.self)
      == second.loadUnaligned(fromByteOffset: offset, as: Word.self)
  }
  switch count {
  case 8...16: return same(UInt64.self, at: 0) && same(UInt64.self, at: count - 8)
  case 4..<8: return same(UInt32.self, at: 0) && same(UInt32.self, at: count - 4)
  case 0..<4: return (0..<count).allSatisfy { same(UInt8.self, at: $0) }
  default: return memcmp(first, second, count) == 0
  }
}
