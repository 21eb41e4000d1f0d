#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// Labels a mapper has already asked ICU for, kept for the mapper's life and
/// shared by every thread that uses it: a service that formats a page per
/// request pays for each distinct minute, day and pair of names once.
///
/// Each thread looks up through a ``LabelMemo`` of what it used, so the lock
/// is taken only when a memo meets a key for the first time.
final class LabelStore: Sendable {
  /// Two names, compared and hashed by their UTF-8 bytes: String's own
  /// hashing normalizes to NFC first, which costs more than the lookup saves.
  struct NamePair: Hashable, Sendable {
    var firstname: String
    var lastname: String

    static func == (left: Self, right: Self) -> Bool {
      sameBytes(left.firstname, right.firstname) && sameBytes(left.lastname, right.lastname)
    }

    private static func sameBytes(_ left: String, _ right: String) -> Bool {
      var right = right
      return right.withUTF8 { holds(left, bytes: $0) }
    }

    func hash(into hasher: inout Hasher) {
      var first = firstname
      var last = lastname
      first.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
      hasher.combine(0xFF as UInt8)  // never in UTF-8: separates the names
      last.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
  }

  /// The tables, by what their keys are.
  struct Tables: Sendable {
    /// Time labels by local minute.
    var times: [Int64: String] = [:]
    /// Short dates by local day.
    var shortDates: [Int64: String] = [:]
    /// Initials by the pair of cleaned names.
    var initials: [NamePair: String] = [:]
    /// Initials by the pair of leading letters (``LeadingLetter/pairKey(_:_:)``).
    var letterPairs: [UInt64: String] = [:]
    /// The initial of each letter written in two UTF-8 bytes, by scalar value.
    var letters: [UInt32: String] = [:]
    /// For each UTC day: the offset at its start, and the first offset change after it.
    var offsets: [Int64: OffsetSpan] = [:]
  }

  /// A zone's UTC offset from the start of a UTC day until `changesAt`.
  struct OffsetSpan: Sendable {
    var offset: Int64
    var changesAt: Int64
  }

  /// Past this many entries a table starts over, so that a long-lived mapper
  /// fed endless distinct names or days stays small.
  static let limit = 8192

  private let tables = Mutex(Tables())
  /// The tables of memos not in use; as many as threads that used the store at once.
  fileprivate let memos = Mutex<[LabelMemo.Tables]>([])

  /// The value for `key` in a table, made the first time. Making happens
  /// outside the lock (it may ask ICU, or this store for another table); two
  /// threads that miss at once make the same value.
  private func lookUp<Key: Hashable & Sendable, Value: Sendable>(
    _ table: WritableKeyPath<Tables, [Key: Value]>, key: Key, _ make: () -> Value
  ) -> Value {
    if let value = tables.withLock({ $0[keyPath: table][key] }) { return value }
    let value = make()
    tables.withLock { remember(value, for: key, in: &$0[keyPath: table]) }
    return value
  }

  func time(at minute: Int64, orMake make: () -> String) -> String {
    lookUp(\.times, key: minute, make)
  }

  func shortDate(on day: Int64, orMake make: () -> String) -> String {
    lookUp(\.shortDates, key: day, make)
  }

  func initials(of names: NamePair, orMake make: () -> String) -> String {
    lookUp(\.initials, key: names, make)
  }

  func initials(ofLetters pair: UInt64, orMake make: () -> String) -> String {
    lookUp(\.letterPairs, key: pair, make)
  }

  /// The initial of a letter written in two UTF-8 bytes; asked for only when
  /// a pair of letters is new, so it has no ``LabelMemo`` front.
  func initial(ofLetter scalar: UInt32, orMake make: () -> String) -> String {
    lookUp(\.letters, key: scalar, make)
  }

  func offsets(on utcDay: Int64, orMake make: () -> OffsetSpan) -> OffsetSpan {
    lookUp(\.offsets, key: utcDay, make)
  }
}

/// One thread's view of a ``LabelStore``: plain tables in front of the
/// shared one. The store keeps the tables of finished memos in a pool
/// (``LabelStore/withMemo(_:)``), so a batch starts with what earlier
/// batches found.
struct LabelMemo: Sendable {
  let store: LabelStore
  fileprivate var tables: Tables

  /// What a memo has looked up, without the store (the store's pool holds
  /// them: with it, they would hold the store in a cycle).
  struct Tables: Sendable {
    /// Times and short dates by minute and day, in slots: consecutive
    /// minutes and days never share one, so today's minutes and the last few
    /// years' days are an array lookup away.
    fileprivate var times = RecentLabels(slots: 2048)
    fileprivate var shortDates = RecentLabels(slots: 2048)
    /// Initials by pair of leading letters, in slots by a hash of the pair.
    fileprivate var letterPairs = RecentLabels(slots: 1024)
    /// Initials and order by pair of names, in slots by a hash of their bytes.
    fileprivate var names = RecentNames<NameRules>(slots: 1024)
    /// Initials and title by pair of names (both given), for rows made as
    /// `String`s: a sender seen again costs no allocation.
    fileprivate var nameRows = RecentNames<NameRow>(slots: 1024)
    fileprivate var offsets: [Int64: LabelStore.OffsetSpan] = [:]
  }

  init(store: LabelStore, tables: Tables = Tables()) {
    self.store = store
    self.tables = tables
  }

  // Each kind of label has a lookup that only reads this memo's slots, for
  // the hot path: a maker closure captures the shared formatter owner, and
  // retaining it for every row makes the cores fight over its count.

  /// The time label of `minute`, if this memo's slots hold it.
  func recentTime(at minute: Int64) -> String? { tables.times.recentLabel(for: minute) }

  /// The short date of `day`, if this memo's slots hold it.
  func recentShortDate(on day: Int64) -> String? { tables.shortDates.recentLabel(for: day) }

  /// The initials of a pair of leading letters, if this memo's slots hold them.
  func recentInitials(ofLetters pair: UInt64) -> String? {
    tables.letterPairs.recentLabel(for: pair, slot: Self.letterPairSlot(pair))
  }

  /// Pairs of letters are not consecutive numbers: spread them over the slots.
  private static func letterPairSlot(_ pair: UInt64) -> UInt64 { (pair &* 0x9E37_79B9_7F4A_7C15) >> 54 }

  mutating func time(at minute: Int64, orMake make: () -> String) -> String {
    tables.times.label(for: minute) { store.time(at: minute, orMake: make) }
  }

  mutating func shortDate(on day: Int64, orMake make: () -> String) -> String {
    tables.shortDates.label(for: day) { store.shortDate(on: day, orMake: make) }
  }

  mutating func initials(ofLetters pair: UInt64, orMake make: () -> String) -> String {
    tables.letterPairs.label(for: pair, slot: Self.letterPairSlot(pair)) {
      store.initials(ofLetters: pair, orMake: make)
    }
  }

  /// What `make` gives for two names, given their UTF-8 bytes; `make` asks
  /// the store with the names as `String`s.
  mutating func names(
    _ firstname: UnsafeBufferPointer<UInt8>, _ lastname: UnsafeBufferPointer<UInt8>,
    orMake make: () -> NameRules
  ) -> NameRules {
    tables.names.value(for: firstname, lastname, orMake: make)
  }

  /// The initials and title of two names, both given, by their UTF-8
  /// bytes, if this memo has them; else the key to remember them by.
  /// (Mutating, as a borrow of the memo would copy it and retain its tables.)
  mutating func nameRow(_ firstname: UnsafeBufferPointer<UInt8>, _ lastname: UnsafeBufferPointer<UInt8>)
    -> (value: NameRow?, key: RecentNames<NameRow>.Key)
  {
    tables.nameRows.lookUp(firstname, lastname)
  }

  mutating func remember(_ row: NameRow, key: RecentNames<NameRow>.Key) {
    tables.nameRows.remember(row, key: key)
  }

  mutating func offsets(on utcDay: Int64, orMake make: () -> LabelStore.OffsetSpan) -> LabelStore.OffsetSpan {
    memoized(in: &tables.offsets, key: utcDay) { store.offsets(on: utcDay, orMake: make) }
  }
}

/// Labels by an integer key, one per slot (the key modulo the slot count,
/// unless told): a newer key takes its slot over.
private struct RecentLabels: Sendable {
  private var keys: [UInt64]
  private var labels: [String]

  /// `slots` must be a power of two.
  init(slots: Int) {
    // No key has only the top bit set: minutes and days of RFC 3339 dates
    // are far from Int64.min, and a pair of letters has its top bits clear.
    // (All ones would not do: it is minute and day -1, in 1969.)
    keys = Array(repeating: 1 << 63, count: slots)
    labels = Array(repeating: "", count: slots)
  }

  @inline(__always)
  mutating func label(for key: Int64, orMake make: () -> String) -> String {
    label(for: UInt64(bitPattern: key), slot: UInt64(bitPattern: key), orMake: make)
  }

  @inline(__always)
  func recentLabel(for key: Int64) -> String? {
    recentLabel(for: UInt64(bitPattern: key), slot: UInt64(bitPattern: key))
  }

  @inline(__always)
  func recentLabel(for key: UInt64, slot: UInt64) -> String? {
    let slot = Int(truncatingIfNeeded: slot) & (keys.count - 1)
    return keys[slot] == key ? labels[slot] : nil
  }

  @inline(__always)
  mutating func label(for key: UInt64, slot: UInt64, orMake make: () -> String) -> String {
    let slot = Int(truncatingIfNeeded: slot) & (keys.count - 1)
    if keys[slot] == key { return labels[slot] }
    let label = make()
    keys[slot] = key
    labels[slot] = label
    return label
  }
}

/// Values by pair of names, in sets of four slots chosen by a hash of their
/// bytes: a new pair takes a free slot of its set, else one in turn.
///
/// A slot's key is the two names' bytes and lengths packed in plain words,
/// so a lookup copies, hashes and compares a few words and touches no
/// reference count. Names longer than ``longestNames`` bytes together are
/// not kept (their value is made each time; initials then come from the
/// store). The hash is not keyed: colliding names only cost making a value
/// again.
struct RecentNames<Value: Sendable>: Sendable {
  /// The longest two names, together, that a slot keeps.
  static var longestNames: Int { wordsPerKey * 8 - 2 }
  private static var wordsPerKey: Int { 8 }
  /// Slots a pair of names may take: consecutive, from its hash.
  private static var ways: Int { 4 }

  /// `wordsPerKey` words per slot: lengths and bytes of the names.
  private var keys: [UInt64]
  /// The words of each slot's key in use; 0 for an empty slot.
  private var keyWords: [UInt8]
  private var values: [Value?]
  /// Which slot of a full set the next pair takes.
  private var evictions: UInt8 = 0

  /// `slots` must be a power of two, at least ``ways``.
  init(slots: Int) {
    keys = Array(repeating: 0, count: slots * Self.wordsPerKey)
    keyWords = Array(repeating: 0, count: slots)
    values = Array(repeating: nil, count: slots)
  }

  @inline(__always)
  mutating func value(
    for firstname: UnsafeBufferPointer<UInt8>, _ lastname: UnsafeBufferPointer<UInt8>, orMake make: () -> Value
  ) -> Value {
    let (value, key) = lookUp(firstname, lastname)
    if let value { return value }
    let made = make()
    remember(made, key: key)
    return made
  }

  /// The value for two names if their slot holds them, and where they go
  /// for ``remember(_:key:)``.
  @inline(__always)
  mutating func lookUp(_ firstname: UnsafeBufferPointer<UInt8>, _ lastname: UnsafeBufferPointer<UInt8>)
    -> (value: Value?, key: Key)
  {
    var key = Key()
    guard firstname.count + lastname.count <= Self.longestNames else { return (nil, key) }
    let wordCount = (firstname.count + lastname.count + 2 + 7) / 8
    key.words = UInt8(wordCount)
    let isHeld = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.wordsPerKey) { words in
      let base = words.baseAddress!
      base[wordCount - 1] = 0  // the padding after the last byte
      let raw = UnsafeMutableRawPointer(base)
      raw.storeBytes(of: UInt8(firstname.count), as: UInt8.self)
      raw.storeBytes(of: UInt8(lastname.count), toByteOffset: 1, as: UInt8.self)
      if let first = firstname.baseAddress { (raw + 2).copyMemory(from: first, byteCount: firstname.count) }
      if let last = lastname.baseAddress {
        (raw + 2 + firstname.count).copyMemory(from: last, byteCount: lastname.count)
      }
      var hash: UInt64 = 0x243F_6A88_85A3_08D3
      for index in 0..<wordCount {
        hash = (hash ^ base[index]) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
      }
      key.slot = Int(truncatingIfNeeded: hash >> 54) & (keyWords.count - 1) & ~(Self.ways - 1)
      for slot in key.slot..<key.slot + Self.ways where keyWords[slot] == key.words {
        let isSame = keys.withUnsafeBufferPointer {
          memcmp($0.baseAddress! + slot * Self.wordsPerKey, base, wordCount * 8) == 0
        }
        if isSame {
          key.slot = slot
          return true
        }
      }
      key.pack = Array(words[..<wordCount])
      return false
    }
    return (isHeld ? values[key.slot] : nil, key)
  }

  /// Puts `value` in the set of slots of the names `key` came from: in a
  /// free slot, else in place of one taken in turn.
  @inline(__always)
  mutating func remember(_ value: Value, key: Key) {
    guard key.words > 0 else { return }
    let set = key.slot
    var slot = set + Int(truncatingIfNeeded: evictions) & (Self.ways - 1)
    if let free = (set..<set + Self.ways).first(where: { keyWords[$0] == 0 }) {
      slot = free
    } else {
      evictions &+= 1
    }
    let start = slot * Self.wordsPerKey
    keys.replaceSubrange(start..<start + key.pack.count, with: key.pack)
    keyWords[slot] = key.words
    values[slot] = value
  }

  /// Where a looked-up pair of names goes, and its packed words when its slot holds another.
  struct Key {
    fileprivate var slot = 0
    /// 0 when the names are too long to keep.
    fileprivate var words: UInt8 = 0
    fileprivate var pack: [UInt64] = []
  }
}

/// What a pair of names gives whatever else the row holds.
struct NameRules: Sendable {
  var initials: String
  /// Whether the title puts the last name first (both names Han, Kana or Hangul).
  var familyNameFirst: Bool
}

/// The initials and title of a row with both names.
struct NameRow: Sendable {
  var initials: String
  var title: String
}

extension LabelStore {
  /// Runs `body` with a memo whose tables come from this store's pool, and
  /// go back to it after.
  @inline(__always)
  func withMemo<Result>(_ body: (inout LabelMemo) -> Result) -> Result {
    var memo = LabelMemo(store: self, tables: memos.withLock { $0.popLast() } ?? LabelMemo.Tables())
    let result = body(&memo)
    memos.withLock { $0.append(memo.tables) }
    return result
  }
}

/// The value for `key` in `table`, made and remembered the first time.
@inline(__always)
private func memoized<Key: Hashable, Value>(in table: inout [Key: Value], key: Key, _ make: () -> Value) -> Value {
  if let value = table[key] { return value }
  let value = make()
  remember(value, for: key, in: &table)
  return value
}

/// Puts `value` in `table`, which starts over past ``LabelStore/limit``
/// entries, so that a long-lived mapper fed endless distinct keys stays small.
private func remember<Key: Hashable, Value>(_ value: Value, for key: Key, in table: inout [Key: Value]) {
  if table.count >= LabelStore.limit { table.removeAll(keepingCapacity: true) }
  table[key] = value
}

/// Whether `text` holds exactly `bytes`, compared as UTF-8 without
/// normalizing.
private func holds(_ text: String, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard text.utf8.count == bytes.count else { return false }
  var text = text
  return text.withUTF8 { $0.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
}
