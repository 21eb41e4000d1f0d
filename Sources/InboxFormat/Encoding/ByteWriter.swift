/// Output bytes being written: a buffer that grows, appending without the
/// uniqueness and capacity checks, and the retains, of `Array.append` on
/// every key, quote and text of every row.
///
/// It owns its memory and cannot be copied; ``takeBytes()`` hands what was
/// written over as an array.
struct ByteWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The bytes written so far.
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: 1) }
    base[count] = byte
    count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if capacity - count < bytes.count { grow(toHold: bytes.count) }
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Makes room for `extra` more bytes, at least doubling.
  @inline(never)
  private mutating func grow(toHold extra: Int) {
    let newCapacity = max(capacity * 2, count + extra)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// What was written, as an array (one copy); the writer is gone after.
  consuming func takeBytes() -> [UInt8] {
    guard count > 0 else { return [] }
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      buffer.baseAddress!.update(from: base, count: count)
      initialized = count
    }
  }
}
