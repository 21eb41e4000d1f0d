import Foundation

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
    variables: ProcessInfo.processInfo.environment,
    clock: { Date() },
    // Read once TZ is gone: the zone of /etc/localtime.
    systemTimeZone: { TimeZone.current })
}
