package import Foundation

/// What wakes the watch loop.
package enum WatchEvent: Equatable {
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
package protocol WatchEventSource {
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

/// A render: the output, and the first instant a label in it stops being
/// true (nil when none ever does).
struct Frame: Equatable {
  var output: [UInt8]
  var validUntil: Date?
}

/// Renders a payload file at start, again whenever the file changes, and
/// again at the earliest instant a shown label stops being true.
///
/// A file that cannot be read or decoded leaves the last good payload shown;
/// it is still rendered again when its labels go stale. An output that
/// cannot be written (an ``OutputFault``) is reported once, and written again
/// after a second, then after twice as long each time up to a minute, and
/// at the next change or label: the watch goes on, and recovers when the
/// fault clears.
struct WatchLoop<Events: WatchEventSource> {
  var clock: any WatchClock
  var events: Events
  /// Reads the file again: its bytes, or nil when it cannot be read (reported).
  var load: () -> [UInt8]?
  /// The frame of a payload as of an instant. `isNew` is true for a payload
  /// just read, whose problems are reported; it throws, having reported
  /// why, when that payload does not decode.
  var render: (_ payload: [UInt8], _ now: Date, _ isNew: Bool) throws -> Frame
  /// Shows a frame's output: writes it out. An ``OutputFault`` is retried;
  /// any other thrown error ends the watch.
  var show: ([UInt8]) throws -> Void
  /// Writes a line for a person: on standard error in the command.
  var report: (String) -> Void

  /// The first wait before writing again after a fault, and the longest.
  /// (Computed: a generic type has no stored static properties.)
  static var retryDelays: (first: TimeInterval, longest: TimeInterval) { (1, 60) }

  /// The fault the last render met, and when (system clock) to try again.
  private var fault: (fault: OutputFault, delay: TimeInterval, retryAt: Date)?

  init(
    clock: any WatchClock, events: Events, load: @escaping () -> [UInt8]?,
    render: @escaping ([UInt8], Date, Bool) throws -> Frame, show: @escaping ([UInt8]) throws -> Void,
    report: @escaping (String) -> Void = { StandardError.write($0) }
  ) {
    self.clock = clock
    self.events = events
    self.load = load
    self.render = render
    self.show = show
    self.report = report
  }

  /// Watches until stopped. `initial` is the file's first reading.
  mutating func run(initial: [UInt8]) throws {
    // The last payload that decoded.
    var payload: [UInt8]?
    var validUntil: Date?
    if let frame = try? render(initial, clock.now(), true) {
      payload = initial
      validUntil = try display(frame)
    }
    while true {
      let labelDeadline = validUntil.flatMap(clock.systemTime(whenReading:))
      let retryDeadline = fault?.retryAt
      let event = try events.next(until: [labelDeadline, retryDeadline].compactMap { $0 }.min())
      switch event {
      case .stop:
        return
      case .fileChanged:
        guard let loaded = load(), let frame = try? render(loaded, clock.now(), true) else { continue }
        payload = loaded
        validUntil = try display(frame)
      case .deadline, .redraw:
        guard let payload else { continue }
        var now = clock.now()
        // The timer is not early, but this clock's reading of it may round a
        // hair below the deadline; rendering then would keep the stale label
        // and ask for the same deadline again. (Unless the deadline was a
        // retry's, earlier than the label's.)
        if event == .deadline, let validUntil, let labelDeadline, retryDeadline.map({ labelDeadline <= $0 }) ?? true {
          now = max(now, validUntil)
        }
        // A payload that decoded once decodes again.
        guard let frame = try? render(payload, now, false) else { continue }
        validUntil = try display(frame)
      }
    }
  }

  /// Shows `frame`; returns when its first label goes stale.
  private mutating func display(_ frame: Frame) throws -> Date? {
    do {
      try show(frame.output)
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
    return frame.validUntil
  }
}
