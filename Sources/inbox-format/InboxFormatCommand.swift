import ArgumentParser
import Glibc
import InboxFormat

/// `inbox-format`: API JSON in, inbox rows out.
@main
struct InboxFormatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inbox-format",
    abstract: "Turn a messaging backend's inbox JSON into the rows an inbox screen shows.",
    discussion: """
      Reads {"items":[...]}, a bare JSON array of messages, or NDJSON, and writes one row \
      per message: avatar initials, title, one-line preview, date label and unread state, \
      for the given locale, time zone and clock. --map reads another backend's payload \
      (Stream Chat, Sendbird, Matrix, Twilio, Intercom, TDLib, Slack, or a mapping file).

      Exit status: 0 success, 1 rows differ (check), 3 invalid messages left out (--skip-invalid), 64 usage \
      error, 65 bad input data, 66 input cannot be opened, 74 I/O error.
      """,
    version: "0.1.0",
    subcommands: [Format.self, Check.self, Watch.self, Serve.self, Preview.self, Mappings.self, Query.self],
    defaultSubcommand: Format.self
  )

  /// Sets the process up (``ProcessSetup``), then parses and runs the
  /// command as ArgumentParser does, but writes its help and errors itself:
  /// help that cannot be written is an I/O error, and an error quotes the
  /// user's words as every message does.
  static func main() async {
    let arguments = ProcessSetup.start()
    do {
      var command = try parseAsRoot(arguments)
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(reporting: error)
    }
  }

  private static func exit(reporting error: any Error) -> Never {
    let status = exitCode(for: error)
    if !(error is ExitCode) {
      if status == .success {
        // Help or the version, asked for: the output proper.
        do {
          try StandardOutput.write(Array((fullMessage(for: error) + "\n").utf8))
        } catch let failure {
          Glibc.exit((failure as? ExitCode ?? ExitStatus.ioError).rawValue)
        }
      } else {
        StandardError.write("inbox-format: \(OneLine.safe(message(for: error)))")
      }
    }
    Glibc.exit(status.rawValue)
  }
}
