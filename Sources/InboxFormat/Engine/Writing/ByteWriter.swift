/// Output bytes being written: a buffer that grows, appending without the
/// uniqueness and capacity checks, and the retains, of `Array.append` on
/// every key, quote and text of every row.
///
/// It writes straight into the storage of the array it makes
/// (``bytes(capacity:_:)``), so that what it wrote is handed over without
/// a copy; only when that capacity runs out does it move to memory of its
/// own, and the array is then copied from it. It cannot be copied.
struct ByteWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The bytes written so far.
  private(set) var count = 0
  /// Whether `base` is this writer's own memory, not the array's storage.
  private var ownsMemory = false

  private init(writingInto buffer: UnsafeMutableBufferPointer<UInt8>) {
    base = buffer.baseAddress!
    capacity = buffer.count
  }

  deinit {
    if ownsMemory { base.deallocate() }
  }

  /// The bytes `write` writes, in an array that reserves `capacity` bytes
  /// up front (more are written, at the cost of one copy).
  static func bytes<Failure: Error>(
    capacity: Int, _ write: (inout ByteWriter) throws(Failure) -> Void
  ) throws(Failure) -> [UInt8] {
    var moved: [UInt8]?
    var failure: Failure?
    let bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 64)) { buffer, initialized in
      var writer = ByteWriter(writingInto: buffer)
      do throws(Failure) {
        try write(&writer)
      } catch {
        failure = error
        return
      }
      if writer.ownsMemory {
        moved = [UInt8](UnsafeBufferPointer(start: writer.base, count: writer.count))
      } else {
        initialized = writer.count
      }
    }
    if let failure { throw failure }
    return moved ?? bytes
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

  /// Makes room for `extra` more bytes, at least doubling, in memory of
  /// the writer's own.
  @inline(never)
  private mutating func grow(toHold extra: Int) {
    let newCapacity = max(capacity * 2, count + extra)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    if ownsMemory { base.deallocate() }
    base = newBase
    capacity = newCapacity
    ownsMemory = true
  }
}
