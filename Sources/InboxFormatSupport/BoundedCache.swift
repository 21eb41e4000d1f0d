// Public: the inlinable methods below lock a `Mutex`.
public import Synchronization

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
///
/// Its methods are inlinable, so that a caller's module specializes them
/// for its key and value: a service makes several look-ups per request,
/// and generic code would ask the runtime for the metadata of every type
/// it touches on each of them.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  @usableFromInline struct Entry {
    @usableFromInline var value: Value
    @usableFromInline var lastUse: UInt64

    @inlinable init(value: Value, lastUse: UInt64) {
      self.value = value
      self.lastUse = lastUse
    }
  }

  @usableFromInline struct State {
    @usableFromInline var entries: [Key: Entry] = [:]
    @usableFromInline var uses: UInt64 = 0
    @usableFromInline var hits = 0
    @usableFromInline var misses = 0
    @usableFromInline var evictions = 0

    @inlinable init() {}
  }

  public let capacity: Int
  @usableFromInline let state = Mutex(State())

  public init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The value for `key`, made by `make` when it is not kept (and then kept).
  @inlinable
  public func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
    if let value = cached(key) { return value }
    let value = try make()
    keep(value, for: key)
    return value
  }

  /// The value kept for `key`, if any.
  @inlinable
  public func kept(_ key: Key) -> Value? {
    cached(key)
  }

  /// Keeps `value` for `key`, in place of any value kept for it.
  @inlinable
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

  /// The value kept for `key`, marked as used now: one look-up of the key.
  @inlinable
  func cached(_ key: Key) -> Value? {
    state.withLock { state in
      guard let index = state.entries.index(forKey: key) else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      state.uses += 1
      state.entries.values[index].lastUse = state.uses
      return state.entries.values[index].value
    }
  }
}
