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
    let length = bytes.count
    if capacity - count < length { grow(toHold: length) }
    let target = base + count
    if length <= 32 {
      copyShort(from: UnsafeRawPointer(source), to: UnsafeMutableRawPointer(target), length: length)
    } else {
      target.update(from: source, count: length)
    }
    count += length
  }

  /// Copies up to 32 bytes with a few word moves that may overlap, never
  /// touching a byte outside either range: most of a row's pieces (keys,
  /// names, labels) are this short, and a call to memcpy costs more than
  /// copying them.
  @inline(__always)
  private func copyShort(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, length: Int) {
    @inline(__always) func move<Word: FixedWidthInteger>(_: Word.Type, at offset: Int) {
      let word = source.loadUnaligned(fromByteOffset: offset, as: Word.self)
      target.storeBytes(of: word, toByteOffset: offset, as: Word.self)
    }
    switch length {
    case 16...:
      move(UInt64.self, at: 0)
      move(UInt64.self, at: 8)
      move(UInt64.self, at: length - 16)
      move(UInt64.self, at: length - 8)
    case 8...:
      move(UInt64.self, at: 0)
      move(UInt64.self, at: length - 8)
    case 4...:
      move(UInt32.self, at: 0)
      move(UInt32.self, at: length - 4)
    case 1...:
      move(UInt8.self, at: 0)
      move(UInt8.self, at: length / 2)
      move(UInt8.self, at: length - 1)
    default:
      break
    }
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
