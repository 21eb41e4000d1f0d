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
  /// Where the lines go.
  let sink: LogSink

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
    sink.write(level: event.level, source: event.source, message: event.message.description, metadata: all)
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

  /// The sink `logger` writes to, when a line appended there directly is
  /// the line `logger` would write: its handler is one of these, with no
  /// metadata of its own and no provider to add.
  static func sink(of logger: Logger) -> LogSink? {
    guard let handler = logger.handler as? StandardErrorLogHandler, handler.metadata.isEmpty,
      handler.metadataProvider == nil
    else { return nil }
    return handler.sink
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
    /// That second, `2022-01-31T12:00:00Z`: a text line's time; JSON puts
    /// the milliseconds before the `Z`.
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
    append(format: format ?? self.format) { time, format, line in
      Self.appendLine(
        time: time, level: level, source: source, message: message, metadata: metadata, format: format, to: &line)
    }
  }

  /// Appends a request's access line, as ``write(level:source:message:metadata:format:)``
  /// appends it for `.info` from `InboxFormatServer` with the record's
  /// message and metadata (``appendAccessLine(_:time:format:to:)``).
  func writeAccess(_ record: AccessRecord) {
    append(format: format) { time, format, line in
      Self.appendAccessLine(record, time: time, format: format, to: &line)
    }
  }

  /// Appends the line `make` writes after the time, or drops and counts it
  /// when the buffer is full.
  private func append(format: LogFormat, make: (_ time: String, LogFormat, inout [UInt8]) -> Void) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let stamp = state.withLock { state in
      if now.tv_sec != state.second {
        state.second = now.tv_sec
        state.stamp = InboxFormatter.utcText(roundingDown: Date(timeIntervalSince1970: Double(now.tv_sec)))
      }
      return state.stamp
    }
    let time = format == .json ? "\(stamp.dropLast()).\(Self.threeDigits(now.tv_nsec / 1_000_000))Z" : stamp
    var line: [UInt8] = []
    line.reserveCapacity(256)
    make(time, format, &line)
    let isReady = state.withLock { state -> Bool in
      let before = state.bytes.count
      if state.dropped > 0 {
        let note = Self.line(
          time: time, level: .warning, source: "InboxFormatServer",
          message: "\(state.dropped) log lines dropped: standard error did not keep up",
          metadata: ["dropped": .stringConvertible(state.dropped)], format: format)
        guard before + note.utf8.count + line.count + 2 <= capacity else {
          state.dropped += 1
          droppedInAll.wrappingAdd(1, ordering: .relaxed)
          return false
        }
        state.bytes += note.utf8
        state.bytes.append(UInt8(ascii: "\n"))
        state.dropped = 0
      } else if before + line.count + 1 > capacity {
        state.dropped += 1
        droppedInAll.wrappingAdd(1, ordering: .relaxed)
        return false
      }
      state.bytes += line
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

  /// One line, without its newline (``appendLine(time:level:source:message:metadata:format:to:)``).
  static func line(
    time: String, level: Logger.Level, source: String, message: String, metadata: Logger.Metadata, format: LogFormat
  ) -> String {
    var bytes: [UInt8] = []
    appendLine(
      time: time, level: level, source: source, message: message, metadata: metadata, format: format, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends one line, without its newline, to `bytes`.
  ///
  /// As text: `TIME LEVEL [SOURCE] MESSAGE` and ` key=value` for each member
  /// of `metadata` the message does not say (``AccessRecord/isInMessage(_:)``),
  /// sorted by key, all but the time escaped as ``StandardErrorLogHandler/oneLine(_:)``
  /// escapes a line. As JSON: an object of `time`, `level`, `source`,
  /// `message`, then every member sorted by key (those named as the first
  /// four as `metadata.NAME`), each string escaped so first.
  ///
  /// Written as bytes, a line costs a request no intermediate strings: the
  /// service writes one per request.
  static func appendLine(
    time: String, level: Logger.Level, source: String, message: String, metadata: Logger.Metadata, format: LogFormat,
    to bytes: inout [UInt8]
  ) {
    switch format {
    case .text:
      bytes += time.utf8
      bytes.append(UInt8(ascii: " "))
      let start = bytes.count
      bytes += level.rawValue.utf8
      bytes += " [".utf8
      bytes += source.utf8
      bytes += "] ".utf8
      bytes += message.utf8
      for (key, value) in sortedMembers(of: metadata, where: { !AccessRecord.isInMessage($0) }) {
        bytes.append(UInt8(ascii: " "))
        bytes += key.utf8
        bytes.append(UInt8(ascii: "="))
        bytes += value.description.utf8
      }
      escapeHidden(in: &bytes, from: start)
    case .json:
      bytes += #"{"time":""#.utf8
      bytes += time.utf8
      bytes += #"","level":""#.utf8
      bytes += level.rawValue.utf8
      bytes += #"","source":"#.utf8
      appendJSONString(source, to: &bytes)
      bytes += #","message":"#.utf8
      appendJSONString(message, to: &bytes)
      for (key, value) in sortedMembers(of: metadata, where: { _ in true }) {
        bytes.append(UInt8(ascii: ","))
        appendJSONString(reservedNames.contains(key) ? "metadata." + key : key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendJSON(value, to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Escapes what `bytes` hold from `start` on as ``StandardErrorLogHandler/oneLine(_:)``
  /// escapes a line. It leaves printable ASCII as it is: only other lines
  /// are made into a string to be escaped.
  private static func escapeHidden(in bytes: inout [UInt8], from start: Int) {
    guard !bytes[start...].allSatisfy(isPrintableASCII) else { return }
    let escaped = StandardErrorLogHandler.oneLine(String(decoding: bytes[start...], as: UTF8.self))
    bytes.replaceSubrange(start..., with: escaped.utf8)
  }

  /// Appends `record`'s access line, without its newline: the bytes
  /// ``appendLine(time:level:source:message:metadata:format:to:)`` appends
  /// for `.info` from `InboxFormatServer` with the record's
  /// ``AccessRecord/message`` and ``AccessRecord/metadata``, which
  /// `StandardErrorLogTests` holds equal over records of every kind. Made
  /// without the dictionary, its sort and the strings between, since the
  /// service writes one a request: the text line's message as its parts
  /// (about 1% of a request's instructions less than making the string,
  /// `Benchmarks/serve-instructions.py`).
  static func appendAccessLine(_ record: AccessRecord, time: String, format: LogFormat, to bytes: inout [UInt8]) {
    switch format {
    case .text:
      bytes += time.utf8
      bytes.append(UInt8(ascii: " "))
      let start = bytes.count
      bytes += "info [InboxFormatServer] ".utf8
      bytes += record.method.utf8
      bytes.append(UInt8(ascii: " "))
      bytes += quoted(record.path, limit: pathQuoteLimit).utf8
      bytes.append(UInt8(ascii: " "))
      bytes += String(record.status).utf8
      bytes += record.aborted ? " aborted after ".utf8 : " ".utf8
      bytes += record.elapsed.description.utf8
      bytes += " ms ".utf8
      bytes += String(record.bytes).utf8
      bytes += " B request_id=".utf8
      bytes += record.requestID.utf8
      if let traceID = record.traceID {
        bytes += " trace_id=".utf8
        bytes += traceID.utf8
      }
      escapeHidden(in: &bytes, from: start)
    case .json:
      bytes += #"{"time":""#.utf8
      bytes += time.utf8
      bytes += #"","level":"info","source":"InboxFormatServer","message":"#.utf8
      appendJSONString(record.message, to: &bytes)
      if record.aborted { bytes += #","aborted":true"#.utf8 }
      bytes += #","bytes":"#.utf8
      bytes += String(record.bytes).utf8
      bytes += #","duration_ms":"#.utf8
      bytes += record.elapsed.description.utf8
      bytes += #","method":"#.utf8
      appendJSONString(record.method, to: &bytes)
      bytes += #","path":"#.utf8
      appendJSONString(shortened(record.path, limit: pathQuoteLimit), to: &bytes)
      bytes += #","request_id":"#.utf8
      appendJSONString(record.requestID, to: &bytes)
      bytes += #","status":"#.utf8
      bytes += String(record.status).utf8
      if let traceID = record.traceID {
        bytes += #","trace_id":"#.utf8
        appendJSONString(traceID, to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// The members every JSON line has; metadata of these names is written as `metadata.NAME`.
  static let reservedNames: Set<String> = ["time", "level", "source", "message"]

  /// The members of `metadata` that `include` takes, sorted by key.
  private static func sortedMembers(
    of metadata: Logger.Metadata, where include: (String) -> Bool
  ) -> [(key: String, value: Logger.MetadataValue)] {
    var members: [(key: String, value: Logger.MetadataValue)] = []
    members.reserveCapacity(metadata.count)
    for member in metadata where include(member.key) { members.append(member) }
    members.sort { $0.key < $1.key }
    return members
  }

  /// Appends a metadata value as JSON: a number or a boolean as itself,
  /// text as a string, lists and dictionaries as arrays and objects.
  private static func appendJSON(_ value: Logger.MetadataValue, to bytes: inout [UInt8]) {
    switch value {
    case .string(let text):
      appendJSONString(text, to: &bytes)
    case .stringConvertible(let value):
      switch value {
      case is any BinaryInteger, is Bool, is Milliseconds: bytes += value.description.utf8
      case let number as Double where number.isFinite: bytes += value.description.utf8
      default: appendJSONString(value.description, to: &bytes)
      }
    case .array(let values):
      bytes.append(UInt8(ascii: "["))
      for (index, value) in values.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        appendJSON(value, to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    case .dictionary(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, (key, value)) in sortedMembers(of: members, where: { _ in true }).enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        appendJSONString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendJSON(value, to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  /// Appends `text` as a JSON string whose text is the text line's:
  /// escaped as a message escapes hidden characters, then as JSON. Plain
  /// ASCII with nothing to escape is written as it is.
  private static func appendJSONString(_ text: String, to bytes: inout [UInt8]) {
    guard text.utf8.allSatisfy(isPlainQuotable) else {
      bytes += jsonStringLiteral(escapingHidden(text)).utf8
      return
    }
    bytes.append(UInt8(ascii: "\""))
    bytes += text.utf8
    bytes.append(UInt8(ascii: "\""))
  }

  private static func threeDigits(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}
