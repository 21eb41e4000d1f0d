import Foundation

/// What the command reads from the process: environment variables, the
/// clock and the system time zone. Tests pass their own.
struct ProcessEnvironment: Sendable {
  var variables: [String: String]
  var clock: @Sendable () -> Date
  var systemTimeZone: @Sendable () -> TimeZone

  subscript(name: String) -> String? { variables[name] }

  static var current: ProcessEnvironment {
    ProcessEnvironment(
      variables: ProcessInfo.processInfo.environment,
      clock: { Date() },
      systemTimeZone: { TimeZone.current })
  }
}
