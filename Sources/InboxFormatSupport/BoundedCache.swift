import Synchronization

/// A dictionary that keeps at most `capacity` entries, dropping the one
/// used longest ago to make room, safe to share between threads: the
/// cache of the library's `InboxFormatterCache`, and of the names and rows
/// the service keeps.
///
/// Values are made outside the lock, so a slow one (a formatter builds ICU
/// formatters) never holds up the others; two requests missing the
/// same key at once may both make it, and the second is kept.
///
/// It counts its hits, misses and evictions under the same lock as its
/// entries, so counting costs a look-up nothing more (``statistics``).
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct Entry {
    var value: Value
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var uses: UInt64 = 0
    var hits = 0
    var misses = 0
    var evictions = 0
  }

  public let capacity: Int
  private let state = Mutex(State())

  public init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The value for `key`, made by `make` when it is not kept (and then kept).
  public func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
    if let value = cached(key) { return value }
    let value = try make()
    keep(value, for: key)
    return value
  }

  /// The value kept for `key`, if any.
  public func kept(_ key: Key) -> Value? {
    cached(key)
  }

  /// Keeps `value` for `key`, in place of any value kept for it.
  public func keep(_ value: Value, for key: Key) {
    state.withLock { state in
      state.uses += 1
      if state.entries[key] == nil, state.entries.count >= capacity,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        state.entries[oldest] = nil
        state.evictions += 1
      }
      state.entries[key] = Entry(value: value, lastUse: state.uses)
    }
  }

  /// How many entries are kept.
  public var count: Int { state.withLock { $0.entries.count } }

  /// Look-ups that found a value (``value(for:make:)``, ``kept(_:)``),
  /// those that did not, entries dropped to make room, and entries kept
  /// now, read together.
  public var statistics: (hits: Int, misses: Int, evictions: Int, count: Int) {
    state.withLock { ($0.hits, $0.misses, $0.evictions, $0.entries.count) }
  }

  private func cached(_ key: Key) -> Value? {
    state.withLock { state in
      guard var entry = state.entries[key] else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      state.uses += 1
      entry.lastUse = state.uses
      state.entries[key] = entry
      return entry.value
    }
  }
}
