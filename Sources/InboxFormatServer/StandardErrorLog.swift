import Foundation
import Glibc
import InboxFormat
package import Logging
import Synchronization

/// A swift-log handler for the service: one line per message on standard
/// error, `2022-01-31T12:00:00Z info [InboxFormatServer] message key=value`,
/// written in batches.
///
/// The access log writes a line per request; written one by one (a lock, a
/// clock read into local time and a system call each), lines cost the
/// service 40% of its requests per second. Here a line is appended to a
/// buffer, which is written out when it passes 64 KiB and at least every
/// 100 ms, and by ``flush()`` when the service stops.
package struct StandardErrorLogHandler: LogHandler {
  package var metadata: Logger.Metadata = [:]
  package var logLevel: Logger.Level
  package var metadataProvider: Logger.MetadataProvider?
  private let label: String

  /// A handler for `label` that writes messages of `level` and above.
  package init(label: String, level: Logger.Level) {
    self.label = label
    self.logLevel = level
  }

  package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  package func log(event: LogEvent) {
    var line = "\(event.level) [\(event.source)] \(event.message)"
    var all = metadata
    if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
    if let more = event.metadata { all.merge(more) { _, new in new } }
    for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
    StandardErrorBuffer.shared.append(Self.oneLine(line))
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
    StandardErrorBuffer.shared.flush()
  }
}

/// Lines waiting for standard error, and the thread that writes them.
private final class StandardErrorBuffer: Sendable {
  static let shared = StandardErrorBuffer()

  private struct State {
    var bytes: [UInt8] = []
    var second = -1
    var stamp = ""
  }

  private let state = Mutex(State())
  /// Held while writing, so that batches reach standard error in order.
  private let writing = Mutex(())

  private init() {
    let thread = Thread { [self] in
      while true {
        Thread.sleep(forTimeInterval: 0.1)
        flush()
      }
    }
    thread.name = "log writer"
    thread.start()
  }

  func append(_ line: String) {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    let isFull = state.withLock { state in
      if now.tv_sec != state.second {
        state.second = now.tv_sec
        state.stamp = Self.stamp(now.tv_sec)
      }
      state.bytes += state.stamp.utf8
      state.bytes += " ".utf8
      state.bytes += line.utf8
      state.bytes.append(UInt8(ascii: "\n"))
      return state.bytes.count >= 64 << 10
    }
    if isFull { flush() }
  }

  func flush() {
    writing.withLock { _ in
      let bytes = state.withLock { state in
        let taken = state.bytes
        state.bytes.removeAll(keepingCapacity: true)
        return taken
      }
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
          if written <= 0 { if errno == EINTR { continue } else { return } }
          offset += written
        }
      }
    }
  }

  /// `2022-01-31T12:00:00Z`.
  private static func stamp(_ seconds: Int) -> String {
    Date(timeIntervalSince1970: Double(seconds)).utcTextRoundedDown
  }
}
