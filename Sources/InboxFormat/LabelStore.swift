import Synchronization

/// Labels a mapper has already asked ICU for, kept for the mapper's life and
/// shared by every thread that uses it: a service that formats a page per
/// request pays for each distinct minute, day and pair of names once.
///
/// Each batch keeps a local copy of what it used (``LabelMemo``), so the lock
/// is taken only when a batch meets a key for the first time.
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
      guard left.utf8.count == right.utf8.count else { return false }
      var left = left
      var right = right
      return left.withUTF8 { left in right.withUTF8 { right in left.elementsEqual(right) } }
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

  func time(at minute: Int64, orMake make: () -> String) -> String {
    tables.withLock { memoized(in: &$0.times, key: minute, make) }
  }

  func shortDate(on day: Int64, orMake make: () -> String) -> String {
    tables.withLock { memoized(in: &$0.shortDates, key: day, make) }
  }

  func initials(of names: NamePair, orMake make: () -> String) -> String {
    tables.withLock { memoized(in: &$0.initials, key: names, make) }
  }

  func offsets(on utcDay: Int64, orMake make: () -> OffsetSpan) -> OffsetSpan {
    tables.withLock { memoized(in: &$0.offsets, key: utcDay, make) }
  }
}

/// One batch's view of a ``LabelStore``: plain dictionaries in front of the shared one.
struct LabelMemo {
  let store: LabelStore
  private var local = LabelStore.Tables()

  init(store: LabelStore) {
    self.store = store
  }

  mutating func time(at minute: Int64, orMake make: () -> String) -> String {
    memoized(in: &local.times, key: minute) { store.time(at: minute, orMake: make) }
  }

  mutating func shortDate(on day: Int64, orMake make: () -> String) -> String {
    memoized(in: &local.shortDates, key: day) { store.shortDate(on: day, orMake: make) }
  }

  mutating func initials(of names: LabelStore.NamePair, orMake make: () -> String) -> String {
    memoized(in: &local.initials, key: names) { store.initials(of: names, orMake: make) }
  }

  mutating func offsets(on utcDay: Int64, orMake make: () -> LabelStore.OffsetSpan) -> LabelStore.OffsetSpan {
    memoized(in: &local.offsets, key: utcDay) { store.offsets(on: utcDay, orMake: make) }
  }
}

/// The value for `key` in `table`, made and remembered the first time.
@inline(__always)
private func memoized<Key: Hashable, Value>(in table: inout [Key: Value], key: Key, _ make: () -> Value) -> Value {
  if let value = table[key] { return value }
  let value = make()
  if table.count >= LabelStore.limit { table.removeAll(keepingCapacity: true) }
  table[key] = value
  return value
}
