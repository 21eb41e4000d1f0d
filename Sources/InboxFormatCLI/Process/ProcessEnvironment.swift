package import Foundation
import Glibc

/// What the command reads from the process: environment variables, the
/// clock and the system time zone. Tests pass their own.
package struct ProcessEnvironment: Sendable {
  package var variables: [String: String]
  package var clock: @Sendable () -> Date
  package var systemTimeZone: @Sendable () -> TimeZone

  package subscript(name: String) -> String? { variables[name] }

  /// The process's environment as it was when the command started, before
  /// ``ProcessSetup`` removed what ICU must not read.
  package static let current = ProcessEnvironment(
    variables: Dictionary(
      EnvironmentEntries.split(EnvironmentEntries.atStart).map {
        (String(decoding: $0.name, as: UTF8.self), String(decoding: $0.value, as: UTF8.self))
      },
      uniquingKeysWith: { first, _ in first }),
    clock: { Date() },
    // Read once TZ is gone: the zone of /etc/localtime.
    systemTimeZone: { TimeZone.current })
}

/// The environment's entries as C programs see them: bytes, split at the
/// first `=` byte. (Foundation's `ProcessInfo.environment` splits at the
/// first `=` character, which a value starting with a combining mark joins,
/// and drops such an entry: ICU would still read it.)
enum EnvironmentEntries {
  /// The environment the process started with, each entry's bytes and its
  /// NUL, as `execve` takes them: taken by ``ProcessSetup`` before it
  /// removes what ICU must not read, for ``ProcessEnvironment/current``
  /// and for the server executable, which must see what the command saw
  /// (``ServerExecutable``).
  static let atStart: [[CChar]] = {
    var entries: [[CChar]] = []
    var pointer = environ
    while let entry = pointer.pointee {
      entries.append(Array(UnsafeBufferPointer(start: entry, count: strlen(entry) + 1)))
      pointer += 1
    }
    return entries
  }()

  /// Each entry's name and value; an entry without `=` is left out.
  static func split(_ entries: [[CChar]]) -> [(name: [UInt8], value: [UInt8])] {
    entries.compactMap { entry in
      entry.withUnsafeBytes { entry in
        let bytes = entry.dropLast()  // the NUL
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        return (Array(bytes[..<equals]), Array(bytes[(equals + 1)...]))
      }
    }
  }
}
