import ArgumentParser

/// The documented exit statuses (sysexits.h values).
enum ExitStatus {
  /// The command line is wrong: an unknown option, locale or time zone.
  static let usage = ExitCode(64)
  /// The input is not a valid inbox payload.
  static let badInput = ExitCode(65)
  /// The input file cannot be opened.
  static let cannotOpenInput = ExitCode(66)
  /// Reading the input or writing the output failed.
  static let ioError = ExitCode(74)
}
