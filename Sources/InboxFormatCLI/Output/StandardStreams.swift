import ArgumentParser
import Glibc
import InboxFormatOptions
package import Synchronization

/// Standard output, written whole and checked.
package enum StandardOutput {
  /// Writes every byte; a reader that went away (EPIPE) ends the command
  /// quietly with success, any other failure exits 74.
  package static func write(_ bytes: [UInt8]) throws {
    guard let error = bytes.withUnsafeBytes({ writeAll($0, to: STDOUT_FILENO) }) else { return }
    if error == EPIPE { throw ExitCode.success }
    StandardError.write("inbox-format: cannot write the output: \(String(cString: strerror(error)))")
    throw ExitStatus.ioError
  }
}

/// Standard output that holds the output back until it is complete, or
/// until it has grown past `limit`: a run that fails on bad input then
/// writes nothing at all, unless its output is too large to hold, and even
/// then a JSON array is left unclosed, so it cannot pass for a result.
struct HeldBackOutput {
  /// Large enough for a page and a few thousand rows, small enough that
  /// NDJSON of any length streams within a flat memory budget.
  let limit = 1 << 20
  /// The chunks held, as they came (gathering them would copy them).
  private var held: [[UInt8]] = []
  private var heldCount = 0
  private var isStreaming = false

  mutating func write(_ chunk: [UInt8]) throws {
    if isStreaming { return try StandardOutput.write(chunk) }
    held.append(chunk)
    heldCount += chunk.count
    if heldCount > limit {
      isStreaming = true
      try flush()
    }
  }

  mutating func flush() throws {
    for chunk in held { try StandardOutput.write(chunk) }
    held = []
    heldCount = 0
  }
}

/// Standard error, one line per message: as it is, or for `serve` and
/// `preview` with `--log-format json`, as a JSON log line of `level` whose
/// message is the line without its `inbox-format: `, written at once.
package enum StandardError {
  /// Writes a message (the line without its `inbox-format: `) as a JSON
  /// log line and flushes it, once `serve` or `preview` logs JSON: set by
  /// `inbox-format-server`, which has the log handler; nil, lines go out
  /// as they are.
  package static let jsonLine = Mutex<(@Sendable (_ message: String, _ level: LogLevel) -> Void)?>(nil)

  package static func write(_ line: String, level: LogLevel = .warning) {
    if let writeJSON = jsonLine.withLock({ $0 }) {
      let prefix = "inbox-format: "
      let message = line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
      writeJSON(message, level)
      return
    }
    var text = line
    text.append("\n")
    // A standard error that cannot be written has no one to tell.
    _ = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: STDERR_FILENO) }
  }
}
