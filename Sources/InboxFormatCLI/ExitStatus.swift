package import ArgumentParser

/// The documented exit statuses: sysexits.h values, and 3 for a run that
/// left invalid messages out.
package enum ExitStatus {
  /// `--skip-invalid` left at least one invalid message out; the output is
  /// complete otherwise. Not 65, which promises no output, nor 1 or 2,
  /// which shells and crashes use.
  package static let skippedInvalid = ExitCode(3)
  /// The command line is wrong: an unknown option, locale or time zone.
  package static let usage = ExitCode(64)
  /// The input is not a valid inbox payload.
  package static let badInput = ExitCode(65)
  /// The input file cannot be opened.
  package static let cannotOpenInput = ExitCode(66)
  /// `serve` or `preview` has no server executable to run
  /// (``ServerExecutable``): `inbox-format-server` is not installed beside
  /// the command, or cannot be run. EX_UNAVAILABLE: "a support program or
  /// file does not exist".
  package static let unavailable = ExitCode(69)
  /// Reading the input or writing the output failed.
  package static let ioError = ExitCode(74)
}
