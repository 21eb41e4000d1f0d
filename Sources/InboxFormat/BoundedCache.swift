import Synchronization

/// A dictionary that keeps at most `capacity` entries, dropping the one
/// used longest ago to make room, safe to share between threads: the
/// cache of ``InboxFormatterCache``, and of the names a service resolves.
///
/// Values are made outside the lock, so a slow one (a formatter builds ICU
/// formatters) never holds up the others; two requests missing the
/// same key at once may both make it, and the second is kept.
package final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct Entry {
    var value: Value
    var lastUse: UInt64
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var uses: UInt64 = 0
  }

  package let capacity: Int
  private let state = Mutex(State())

  package init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The value for `key`, made by `make` when it is not kept (and then kept).
  package func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
    if let value = cached(key) { return value }
    let value = try make()
    keep(value, for: key)
    return value
  }

  /// The value kept for `key`, if any.
  package func kept(_ key: Key) -> Value? {
    cached(key)
  }

  /// Keeps `value` for `key`, in place of any value kept for it.
  package func keep(_ value: Value, for key: Key) {
    state.withLock { state in
      state.uses += 1
      if state.entries[key] == nil, state.entries.count >= capacity,
        let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
      {
        state.entries[oldest] = nil
      }
      state.entries[key] = Entry(value: value, lastUse: state.uses)
    }
  }

  /// How many entries are kept.
  package var count: Int { state.withLock { $0.entries.count } }

  private func cached(_ key: Key) -> Value? {
    state.withLock { state in
      guard var entry = state.entries[key] else { return nil }
      state.uses += 1
      entry.lastUse = state.uses
      state.entries[key] = entry
      return entry.value
    }
  }
}
