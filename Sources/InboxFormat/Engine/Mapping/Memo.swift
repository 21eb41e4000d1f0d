/// Values remembered by key, for one thread (or behind a lock, as in
/// ``MadeLabels``), in a fixed number of slots: a
/// lookup is a hash, an index and a comparison, and a newer key takes a
/// slot over. With `ways` above 1 a key may take any of that many slots in
/// turn, so keys whose hashes collide can stay side by side.
///
/// The engine's one cache: of labels by local minute and day, initials by
/// pair of letters, names by their bytes, offsets by day. Colliding keys
/// only cost making a value again, so the hash is not keyed.
struct Memo<Key: Sendable, Value: Sendable>: Sendable {
  private var keys: [Key?]
  /// Each slot's key's hash, looked at first: most slots a lookup meets hold
  /// another key, told apart without loading the key.
  private var hashes: [UInt64]
  private var values: [Value?]
  private let ways: Int
  /// Which slot of a full set the next key takes.
  private var turn = 0

  /// `slots` and `ways` must be powers of two, `ways` at most `slots`.
  init(slots: Int, ways: Int = 1) {
    keys = Array(repeating: nil, count: slots)
    hashes = Array(repeating: 0, count: slots)
    values = Array(repeating: nil, count: slots)
    self.ways = ways
  }
}

// `Key: MemoKey` constrains the methods, not the type: the runtime checks a
// generic type's requirements whenever it makes the type's metadata (to
// destroy a memo, say), each by a scan of every conformance in the
// executable.
extension Memo where Key: MemoKey {
  /// The value remembered for `key`, if any.
  @inline(__always)
  func peek(_ key: Key) -> Value? {
    let hash = key.memoHash
    let set = firstSlot(of: hash)
    for slot in set..<set + ways where hashes[slot] == hash && keys[slot] == key { return values[slot] }
    return nil
  }

  /// The value remembered for `key`, or the one `make` gives, remembered.
  @inline(__always)
  mutating func value(for key: Key, orMake make: () -> Value) -> Value {
    if let value = peek(key) { return value }
    let value = make()
    remember(value, for: key)
    return value
  }

  /// Remembers `value` for `key`: in its slot if it has one, else in a free
  /// slot of its set, else in one taken in turn.
  mutating func remember(_ value: Value, for key: Key) {
    let hash = key.memoHash
    let set = firstSlot(of: hash)
    var slot = set + turn & (ways - 1)
    if let held = (set..<set + ways).first(where: { keys[$0] == key || keys[$0] == nil }) {
      slot = held
    } else {
      turn &+= 1
    }
    keys[slot] = key
    hashes[slot] = hash
    values[slot] = value
  }

  @inline(__always)
  private func firstSlot(of hash: UInt64) -> Int {
    Int(truncatingIfNeeded: hash) & (keys.count - 1) & ~(ways - 1)
  }
}

/// A key of a ``Memo``: equal keys have equal hashes.
protocol MemoKey: Equatable, Sendable {
  /// Where the key goes: its low bits choose the slot.
  var memoHash: UInt64 { get }
}

extension Int64: MemoKey {
  /// Itself: consecutive minutes and days take consecutive slots and never
  /// push each other out.
  var memoHash: UInt64 { UInt64(bitPattern: self) }
}

extension UInt32: MemoKey {
  var memoHash: UInt64 { UInt64(self) }
}

/// Two letters (or no letter, 0), whose initials are looked up together.
struct LetterPair: MemoKey {
  var first: UInt32
  var last: UInt32

  /// Spread over the slots: pairs of letters are not consecutive numbers.
  var memoHash: UInt64 { ((UInt64(first) << 32 | UInt64(last)) &* 0x9E37_79B9_7F4A_7C15) >> 32 }
}

/// Two names, held by their UTF-8 bytes and lengths packed in plain words,
/// so that comparing and hashing them touches no reference count; nil
/// (``init(_:_:)``) for names too long to pack.
struct PackedNames: MemoKey {
  /// The longest two names, together, that fit.
  static let longestNames = 62
  private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  /// The words the names take (their lengths come first, in two bytes).
  private let wordCount: Int
  let memoHash: UInt64

  @inline(__always)
  init?(_ firstname: UnsafeBufferPointer<UInt8>, _ lastname: UnsafeBufferPointer<UInt8>) {
    guard firstname.count + lastname.count <= Self.longestNames else { return nil }
    let wordCount = (firstname.count + lastname.count + 2 + 7) / 8
    self.wordCount = wordCount
    var hash: UInt64 = 0x243F_6A88_85A3_08D3
    var words = self.words
    withUnsafeMutableBytes(of: &words) { raw in
      raw[0] = UInt8(firstname.count)
      raw[1] = UInt8(lastname.count)
      if let first = firstname.baseAddress {
        (raw.baseAddress! + 2).copyMemory(from: first, byteCount: firstname.count)
      }
      if let last = lastname.baseAddress {
        (raw.baseAddress! + 2 + firstname.count).copyMemory(from: last, byteCount: lastname.count)
      }
      for index in 0..<wordCount {
        hash = (hash ^ raw.load(fromByteOffset: index * 8, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
      }
    }
    self.words = words
    memoHash = hash >> 32
  }

  static func == (left: Self, right: Self) -> Bool {
    guard left.memoHash == right.memoHash, left.wordCount == right.wordCount else { return false }
    return withUnsafeBytes(of: left.words) { l in
      withUnsafeBytes(of: right.words) { r in
        (0..<left.wordCount).allSatisfy {
          l.load(fromByteOffset: $0 * 8, as: UInt64.self) == r.load(fromByteOffset: $0 * 8, as: UInt64.self)
        }
      }
    }
  }
}
