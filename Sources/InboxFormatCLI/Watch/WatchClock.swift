package import Foundation

/// The clock the labels are relative to while watching, and where its
/// instants fall on the system clock, which the kernel's timer follows.
package protocol WatchClock {
  /// The instant labels are relative to now.
  func now() -> Date
  /// The system-clock instant at which this clock reads `instant`, or nil
  /// when it never will (a frozen clock).
  func systemTime(whenReading instant: Date) -> Date?
  /// The system clock's reading now, which timers that are not about labels
  /// (trying a write again) count from.
  func systemNow() -> Date
}

extension WatchClock {
  package func systemNow() -> Date { Date() }
}

/// The system clock, or a clock set to another instant that then runs in
/// real time with it (`--clock-start`).
package struct RunningClock: WatchClock, Sendable {
  /// How far this clock is ahead of the system clock, in seconds.
  var offset: TimeInterval = 0

  /// The system clock itself.
  init() {}

  /// A clock that reads `start` when the system clock reads `systemNow`.
  init(startingAt start: Date, systemNow: Date = Date()) {
    offset = start.timeIntervalSince(systemNow)
  }

  package func now() -> Date { Date().addingTimeInterval(offset) }

  package func systemTime(whenReading instant: Date) -> Date? { instant.addingTimeInterval(-offset) }
}

/// A clock stopped at one instant (`--now`): labels never go stale.
struct FrozenClock: WatchClock {
  var instant: Date

  func now() -> Date { instant }

  func systemTime(whenReading instant: Date) -> Date? { nil }
}
