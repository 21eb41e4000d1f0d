import Foundation
import InboxFormat

/// What wakes the watch loop.
enum WatchEvent: Equatable {
  /// The watched file changed (a burst of changes, coalesced).
  case fileChanged
  /// The deadline the loop asked for has come.
  case deadline
  /// What is shown must be drawn again: the system clock was set, or the
  /// terminal was resized.
  case redraw
  /// SIGINT or SIGTERM: the watch ends.
  case stop
}

/// Where the watch loop's events come from: the kernel in the command, a
/// script in tests.
protocol WatchEventSource {
  /// Blocks until the next event. `deadline` is a system-clock instant, or
  /// nil for none; a deadline already past comes at once.
  mutating func next(until deadline: Date?) throws -> WatchEvent
}

/// Renders a payload file at start, again whenever the file changes, and
/// again at the earliest instant a shown label stops being true.
///
/// A file that cannot be read or decoded leaves the last good rows shown;
/// they are still rendered again when their labels go stale.
struct WatchLoop<Events: WatchEventSource> {
  /// The context of every render, but for `now`, which comes from `clock`.
  var context: FormattingContext
  var clock: any WatchClock
  var events: Events
  /// Reads and decodes the file, or reports why it cannot and returns nil.
  var load: () -> [MessageAPIModel]?
  /// Shows rows: writes them out. A thrown error ends the watch.
  var show: ([MessageUIModel]) throws -> Void

  /// Watches until stopped. `initial` is the file's first reading, or nil
  /// when it did not decode.
  mutating func run(initial: [MessageAPIModel]?) throws {
    var messages = initial
    var staleAt = try messages.flatMap { try render($0, at: clock.now()) }
    while true {
      let event = try events.next(until: staleAt.flatMap(clock.systemTime(whenReading:)))
      switch event {
      case .stop:
        return
      case .fileChanged:
        guard let loaded = load() else { continue }
        messages = loaded
        staleAt = try render(loaded, at: clock.now())
      case .deadline, .redraw:
        guard let messages else { continue }
        var now = clock.now()
        // The timer is not early, but this clock's reading of it may round a
        // hair below the deadline; rendering then would keep the stale label
        // and ask for the same deadline again.
        if event == .deadline, let staleAt { now = max(now, staleAt) }
        staleAt = try render(messages, at: now)
      }
    }
  }

  /// Shows `messages` as of `now`; returns when the first label goes stale.
  private func render(_ messages: [MessageAPIModel], at now: Date) throws -> Date? {
    let rows = MessageMapper(context: context.now(now)).map(messages)
    try show(rows)
    // A deadline not after now would fire at once, and again after that.
    return rows.lazy.compactMap(\.dateValidUntil).filter { $0 > now }.min()
  }
}
