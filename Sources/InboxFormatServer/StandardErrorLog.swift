import Dispatch
import Foundation
import Glibc
import InboxFormat
import InboxFormatOptions
import InboxFormatSupport
package import Logging
import Synchronization

/// How the service's log lines are written (`--log-format`).
package enum LogFormat: String, Sendable, CaseIterable {
  /// `2022-01-31T12:00:00Z info [InboxFormatServer] message key=value`.
  case text
  /// One JSON object per line: `time` (RFC 3339, UTC, milliseconds),
  /// `level`, `source`, `message`, then the line's metadata as members.
  case json
}

/// A swift-log handler for the service: one line per message on standard
/// error (or a test's ``LogSink``), as text or JSON, written in batches.
///
/// The access log writes a line per request; written one by one (a lock, a
/// clock read into local time and a system call each), lines cost the
/// service 40% of its requests per second. Here a line is appended to a
/// buffer, which a thread of its own writes out when it passes 64 KiB and
/// at least every 100 ms, and ``flush()`` when the service stops. A line
/// never waits for standard error: when it is slow and the buffer is full,
/// lines are dropped and counted, and a `warning` line says how many before
/// the next line that fits.
///
/// Whatever a line holds stays one visible line and inert: in text, every
/// control and format character is escaped as `\u{1B}` (as the command's
/// messages escape them); in JSON, each string is escaped so first, then
/// written as a JSON string literal (``jsonStringLiteral(_:)``), so that a
/// JSON reader gets the same text the text line shows.
package struct StandardErrorLogHandler: LogHandler {
  package var metadata: Logger.Metadata = [:]
  package var logLevel: Logger.Level
  package var metadataProvider: Logger.MetadataProvider?
  private let sink: LogSink

  /// A handler that writes messages of `level` and above to standard error,
  /// in the format ``bootstrap(level:format:)`` chose.
  package init(label: String, level: Logger.Level) {
    self.init(level: level, sink: .standardError)
  }

  /// A handler that writes to `sink`.
  init(level: Logger.Level, sink: LogSink) {
    self.logLevel = level
    self.sink = sink
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// Makes every logger of the process write to standard error in `format`,
  /// from `level` on.
  package static func bootstrap(level: Logger.Level, format: LogFormat) {
    LogSink.standardError.format = format
    LoggingSystem.bootstrap { StandardErrorLogHandler(label: $0, level: level) }
  }

  package func log(event: LogEvent) {
    // The usual line (an access line) has metadata of its own only: no
    // dictionary is merged for it.
    var all = event.metadata ?? [:]
    if !metadata.isEmpty || metadataProvider != nil {
      all = metadata
      if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
      if let more = event.metadata { all.merge(more) { _, new in new } }
    }
    sink.write(level: event.level, source: event.source, message: "\(event.message)", metadata: all)
  }

  /// Writes a line of the command's own in `format`, whatever the log
  /// level: where it listens, why it cannot, a watched file's problem.
  package static func announce(_ message: String, level: Logger.Level, format: LogFormat) {
    LogSink.standardError.write(level: level, source: "inbox-format", message: message, metadata: [:], format: format)
  }

  /// `line` with what could drive a terminal or break the line escaped as
  /// `\u{…}` (as the command's messages escape it): the service quotes what
  /// it logs from a request, but the packages under it log errors whose
  /// text may carry a request's bytes.
  static func oneLine(_ line: String) -> String {
    escapingHidden(line)
  }

  /// Writes what is buffered now: before the process ends.
  package static func flush() {
    LogSink.standardError.flush()
  }
}

/// Where log lines go: a buffer, written to a file descriptor in batches,
/// that never makes a line wait and drops lines past its capacity.
final class LogSink: Sendable {
  /// Standard error, written by a thread of its own.
  static let standardError = LogSink(descriptor: STDERR_FILENO, capacity: 4 << 20, startsWriter: true)

  /// Where the lines go.
  let descriptor: Int32
  /// The most bytes held for writing; a line that does not fit is dropped.
  let capacity: Int
  /// The buffer is written once it holds this much, without waiting for the next 100 ms.
  static let batch = 64 << 10

  private struct State {
    var bytes: [UInt8] = []
    /// The second ``stamp`` is of.
    var second = -1
    /// That second, `2022-01-31T12:00:00` (no zone: text adds `Z`, JSON milliseconds and `Z`).
    var stamp = ""
    /// Lines dropped since the last one written.
    var dropped = 0
  }

  private let state = Mutex(State())
  /// Held while writing, so that batches reach the descriptor in order.
  private let writing = Mutex(())
  /// Wakes the writer early, when a batch is ready.
  private let ready = DispatchSemaphore(value: 0)
  private let isJSON = Atomic<Bool>(false)
  private let droppedInAll = Atomic<Int>(0)

  /// A sink that writes to `descriptor`, holding `capacity` bytes at most;
  /// with `startsWriter`, a thread writes it out, else ``flush()`` does.
  init(descriptor: Int32, capacity: Int, format: LogFormat = .text, startsWriter: Bool = false) {
    self.descriptor = descriptor
    self.capacity = capacity
    self.format = format
    guard startsWriter else { return }
    let thread = Thread { [self] in
      while true {
        _ = ready.wait(timeout: .now() + .milliseconds(100))
        flush()
      }
    }
    thread.name = "log writer"
    thread.start()
  }

  /// The format of the lines written.
  var format: LogFormat {
    get { isJSON.load(ordering: .relaxed) ? .json : .text }
    set { isJSON.store(newValue == .json, ordering: .relaxed) }
  }

  /// The lines dropped since the process started because the descriptor
  /// did not keep up.
  var droppedLines: Int { droppedInAll.load(ordering: .relaxed) }

  /// Appends a line, in ``format`` unless told otherwise, or drops and
  /// counts it when the buffer is full.
  func write(
    level: Logger.Level, source: String, message: String, metadata: Logger.Metadata, format: LogFormat? = nil
  ) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let stamp = state.withLock { state in
      if now.tv_sec != state.second {
        state.second = now.tv_sec
        state.stamp = String(
          InboxFormatter.utcText(roundingDown: Date(timeIntervalSince1970: Double(now.tv_sec))).dropLast())
      }
      return state.stamp
    }
    let format = format ?? self.format
    let time = format == .json ? "\(stamp).\(Self.threeDigits(now.tv_nsec / 1_000_000))Z" : stamp + "Z"
    let line = Self.line(time: time, level: level, source: source, message: message, metadata: metadata, format: format)
    let isReady = state.withLock { state -> Bool in
      let before = state.bytes.count
      if state.dropped > 0 {
        let note = Self.line(
          time: time, level: .warning, source: "InboxFormatServer",
          message: "\(state.dropped) log lines dropped: standard error did not keep up",
          metadata: ["dropped": .stringConvertible(state.dropped)], format: format)
        guard before + note.utf8.count + line.utf8.count + 2 <= capacity else {
          state.dropped += 1
          droppedInAll.wrappingAdd(1, ordering: .relaxed)
          return false
        }
        state.bytes += note.utf8
        state.bytes.append(UInt8(ascii: "\n"))
        state.dropped = 0
      } else if before + line.utf8.count + 1 > capacity {
        state.dropped += 1
        droppedInAll.wrappingAdd(1, ordering: .relaxed)
        return false
      }
      state.bytes += line.utf8
      state.bytes.append(UInt8(ascii: "\n"))
      return before < Self.batch && state.bytes.count >= Self.batch
    }
    if isReady { ready.signal() }
  }

  /// Writes what is buffered now, waiting for the descriptor to take it.
  func flush() {
    writing.withLock { _ in
      let bytes = state.withLock { state in
        let taken = state.bytes
        state.bytes.removeAll(keepingCapacity: true)
        return taken
      }
      // A log that cannot be written has no one to tell.
      _ = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
  }

  /// One line, without its newline.
  static func line(
    time: String, level: Logger.Level, source: String, message: String, metadata: Logger.Metadata, format: LogFormat
  ) -> String {
    switch format {
    case .text:
      var line = "\(level) [\(source)] \(message)"
      // What the message says is left out before the rest is sorted: an
      // access line keeps one member of its six.
      let unsaid = metadata.lazy.filter { !AccessLogMiddleware.inMessage.contains($0.key) }
      for (key, value) in unsaid.sorted(by: { $0.key < $1.key }) {
        line += " \(key)=\(value)"
      }
      return time + " " + StandardErrorLogHandler.oneLine(line)
    case .json:
      var line =
        "{\"time\":\"\(time)\",\"level\":\"\(level)\",\"source\":\(jsonString(source)),\"message\":\(jsonString(message))"
      for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
        let name = reservedNames.contains(key) ? "metadata." + key : key
        line += "," + jsonString(name) + ":" + json(value)
      }
      return line + "}"
    }
  }

  /// The members every JSON line has; metadata of these names is written as `metadata.NAME`.
  static let reservedNames: Set<String> = ["time", "level", "source", "message"]

  /// A metadata value as JSON: a number or a boolean as itself, text as a
  /// string, lists and dictionaries as arrays and objects.
  private static func json(_ value: Logger.MetadataValue) -> String {
    switch value {
    case .string(let text):
      return jsonString(text)
    case .stringConvertible(let value):
      switch value {
      case is any BinaryInteger, is Bool, is Milliseconds: return value.description
      case let number as Double where number.isFinite: return value.description
      default: return jsonString(value.description)
      }
    case .array(let values):
      return "[" + values.map(json).joined(separator: ",") + "]"
    case .dictionary(let members):
      return "{"
        + members.sorted { $0.key < $1.key }.map { jsonString($0.key) + ":" + json($0.value) }.joined(separator: ",")
        + "}"
    }
  }

  /// `text` as a JSON string whose text is the text line's: escaped as a
  /// message escapes hidden characters, then as JSON.
  private static func jsonString(_ text: String) -> String {
    jsonStringLiteral(escapingHidden(text))
  }

  private static func threeDigits(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}
