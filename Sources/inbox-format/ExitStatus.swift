import ArgumentParser

/// The documented exit statuses: sysexits.h values, and 3 for a run that
/// left invalid messages out.
enum ExitStatus {
  /// `--skip-invalid` left at least one invalid message out; the output is
  /// complete otherwise. Not 65, which promises no output, nor 1 or 2,
  /// which shells and crashes use.
  static let skippedInvalid = ExitCode(3)
  /// The command line is wrong: an unknown option, locale or time zone.
  static let usage = ExitCode(64)
  /// The input is not a valid inbox payload.
  static let badInput = ExitCode(65)
  /// The input file cannot be opened.
  static let cannotOpenInput = ExitCode(66)
  /// Reading the input or writing the output failed.
  static let ioError = ExitCode(74)
}
