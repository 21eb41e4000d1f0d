import Synchronization

/// A value made the first time it is read and kept after it, so that what
/// a context may never need (a formatter, a table of words) costs nothing
/// until a label needs it.
///
/// Any thread may read it. A read after the first is an atomic load of a
/// flag and a copy of the value, with no write to memory the threads
/// share; threads that read it first at the same time wait for the one
/// making it, so it is made once.
final class OnFirstUse<Value: Sendable>: @unchecked Sendable {
  /// Set once `stored` holds the value, and never unset: a thread that
  /// sees it set (acquiring) sees the value stored before it (releasing).
  private let isStored = Atomic<Bool>(false)
  /// Written once, under `making`, before `isStored` is set.
  private var stored: Value?
  /// Held while the value is made.
  private let making = Mutex(())
  private let make: @Sendable () -> Value

  init(_ make: @escaping @Sendable () -> Value) {
    self.make = make
  }

  /// The value, made now if it was not yet.
  var value: Value {
    if isStored.load(ordering: .acquiring), let stored { return stored }
    return making.withLock { _ in
      // Under the lock, a value stored by another thread is seen.
      if let stored { return stored }
      let value = make()
      stored = value
      isStored.store(true, ordering: .releasing)
      return value
    }
  }

  /// Whether the value was made.
  var isMade: Bool {
    isStored.load(ordering: .acquiring)
  }
}
