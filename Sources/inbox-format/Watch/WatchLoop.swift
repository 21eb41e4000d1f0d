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

/// An output that could not be written this time: a full disk, a file size
/// limit, a directory gone or not writable. The watch reports it, keeps the
/// last good output, and tries again.
struct OutputFault: Error, Equatable, CustomStringConvertible {
  /// The output, as messages name it: `"ui.json"`.
  var output: String
  /// Why it could not be written: `No space left on device`.
  var reason: String

  var description: String { "cannot write \(output): \(reason)" }
}

/// Renders a payload file at start, again whenever the file changes, and
/// again at the earliest instant a shown label stops being true.
///
/// A file that cannot be read or decoded leaves the last good rows shown;
/// they are still rendered again when their labels go stale. An output that
/// cannot be written (an ``OutputFault``) is reported once, and written again
/// after a second, then after twice as long each time up to a minute, and
/// at the next change or label: the watch goes on, and recovers when the
/// fault clears.
struct WatchLoop<Events: WatchEventSource> {
  /// The context of every render, but for `now`, which comes from `clock`.
  var context: FormattingContext
  var clock: any WatchClock
  var events: Events
  /// Reads and decodes the file, or reports why it cannot and returns nil.
  var load: () -> [MessageAPIModel]?
  /// Shows rows: writes them out. An ``OutputFault`` is retried; any other
  /// thrown error ends the watch.
  var show: ([MessageUIModel]) throws -> Void
  /// Writes a line for a person: on standard error in the command.
  var report: (String) -> Void

  /// The first wait before writing again after a fault, and the longest.
  /// (Computed: a generic type has no stored static properties.)
  static var retryDelays: (first: TimeInterval, longest: TimeInterval) { (1, 60) }

  /// The fault the last render met, and when (system clock) to try again.
  private var fault: (fault: OutputFault, delay: TimeInterval, retryAt: Date)?

  init(
    context: FormattingContext, clock: any WatchClock, events: Events, load: @escaping () -> [MessageAPIModel]?,
    show: @escaping ([MessageUIModel]) throws -> Void, report: @escaping (String) -> Void = { StandardError.write($0) }
  ) {
    self.context = context
    self.clock = clock
    self.events = events
    self.load = load
    self.show = show
    self.report = report
  }

  /// Watches until stopped. `initial` is the file's first reading, or nil
  /// when it did not decode.
  mutating func run(initial: [MessageAPIModel]?) throws {
    var messages = initial
    var staleAt: Date?
    if let messages { staleAt = try render(messages, at: clock.now()) }
    while true {
      let labelDeadline = staleAt.flatMap(clock.systemTime(whenReading:))
      let retryDeadline = fault?.retryAt
      let event = try events.next(until: [labelDeadline, retryDeadline].compactMap { $0 }.min())
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
        // and ask for the same deadline again. (Unless the deadline was a
        // retry's, earlier than the label's.)
        if event == .deadline, let staleAt, let labelDeadline, retryDeadline.map({ labelDeadline <= $0 }) ?? true {
          now = max(now, staleAt)
        }
        staleAt = try render(messages, at: now)
      }
    }
  }

  /// Shows `messages` as of `now`; returns when the first label goes stale.
  private mutating func render(_ messages: [MessageAPIModel], at now: Date) throws -> Date? {
    let rows = MessageMapper(context: context.now(now)).map(messages)
    do {
      try show(rows)
      if let fault {
        report("inbox-format: wrote \(fault.fault.output) again")
        self.fault = nil
      }
    } catch let newFault as OutputFault {
      // One line per fault, not one per attempt.
      if fault?.fault != newFault { report("inbox-format: \(newFault); the last output stays, trying again") }
      let delay = fault.map { min($0.delay * 2, Self.retryDelays.longest) } ?? Self.retryDelays.first
      fault = (newFault, delay, clock.systemNow().addingTimeInterval(delay))
    }
    // A deadline not after now would fire at once, and again after that.
    return rows.lazy.compactMap(\.dateValidUntil).filter { $0 > now }.min()
  }
}
