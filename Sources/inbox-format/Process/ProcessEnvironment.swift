import Foundation
import Glibc

/// What the command reads from the process: environment variables, the
/// clock and the system time zone. Tests pass their own.
struct ProcessEnvironment: Sendable {
  var variables: [String: String]
  var clock: @Sendable () -> Date
  var systemTimeZone: @Sendable () -> TimeZone

  subscript(name: String) -> String? { variables[name] }

  /// The process's environment as it was when the command started, before
  /// ``ProcessSetup`` removed what ICU must not read.
  static let current = ProcessEnvironment(
    variables: Dictionary(
      EnvironmentEntries.all.map {
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
  static var all: [(name: [UInt8], value: [UInt8])] {
    var entries: [(name: [UInt8], value: [UInt8])] = []
    var pointer = environ
    while let entry = pointer.pointee {
      let bytes = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        entries.append((Array(bytes[..<equals]), Array(bytes[(equals + 1)...])))
      }
      pointer += 1
    }
    return entries
  }
}
