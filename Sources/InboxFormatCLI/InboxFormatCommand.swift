package import ArgumentParser
import Glibc
import InboxFormat

/// `inbox-format`: API JSON in, inbox rows out.
///
/// Both executables run this command: `inbox-format`, and
/// `inbox-format-server`, which gives ``main(server:)`` what runs `serve`
/// and `preview`.
package struct InboxFormatCommand: AsyncParsableCommand {
  package static let configuration = CommandConfiguration(
    commandName: "inbox-format",
    abstract: "Turn a messaging backend's inbox JSON into the rows an inbox screen shows.",
    discussion: """
      Reads {"items":[...]}, a bare JSON array of messages, or NDJSON, and writes one row \
      per message: avatar initials, title, one-line preview, date label and unread state, \
      for the given locale, time zone and clock. --map reads another backend's payload \
      (Stream Chat, Sendbird, Matrix, Twilio, Intercom, TDLib, Slack, or a mapping file).

      Exit status: 0 success, 1 rows differ (check), 3 invalid messages left out (--skip-invalid), 64 usage \
      error, 65 bad input data, 66 input cannot be opened, 69 serve or preview without their server \
      executable (inbox-format-server), 74 I/O error.
      """,
    version: "0.1.0",
    subcommands: [Format.self, Check.self, Watch.self, Serve.self, Preview.self, Mappings.self, Query.self],
    defaultSubcommand: Format.self
  )

  package init() {}

  /// Sets the process up (``ProcessSetup``), then parses and runs the
  /// command as ArgumentParser does (the commonest command lines through
  /// ``ArgumentShortcut``), but writes its help and errors itself:
  /// help that cannot be written is an I/O error, and an error quotes the
  /// user's words as every message does.
  ///
  /// `server` runs `serve` and `preview` once they are parsed and valid;
  /// without one, the process is handed over to the executable that has
  /// one (``ServerExecutable``).
  ///
  /// On the main actor, as an `@main` type's `main()` is: parsing and the
  /// commands that do not await start on the main thread, with no thread
  /// to start for them.
  @MainActor
  package static func main(server: (any ServerCommands)?) async {
    let arguments = ProcessSetup.start()
    do {
      switch ArgumentShortcut(arguments) {
      case .format(let format):
        try format.run()
        return
      case .version:
        exit(answering: configuration.version)
      case nil:
        break
      }
      var command = try parseAsRoot(arguments)
      if let serve = command as? Serve {
        // Without a server, the process is replaced here, on the main
        // thread, before any other thread starts (awaiting `run()` would
        // start Dispatch's workers first).
        guard let server else { try ServerExecutable.replaceProcess() }
        try await server.serve(serve)
      } else if let preview = command as? Preview {
        guard let server else { try ServerExecutable.replaceProcess() }
        try await server.preview(preview)
      } else {
        // The other subcommands are synchronous (`CommandTreeTests` holds
        // it). Asking the value whether it is asynchronous would cost a
        // conformance look-up: a scan of every conformance in the
        // executable, on every run.
        try command.run()
      }
    } catch {
      exit(reporting: error)
    }
  }

  private static func exit(reporting error: any Error) -> Never {
    let status = exitCode(for: error)
    if !(error is ExitCode) {
      if status == .success { exit(answering: fullMessage(for: error)) }
      StandardError.write("inbox-format: \(OneLine.safe(message(for: error)))")
    }
    Glibc.exit(status.rawValue)
  }

  /// Writes help or the version, asked for: the output proper, so that one
  /// that cannot be written is an I/O error.
  private static func exit(answering text: String) -> Never {
    do {
      try StandardOutput.write(Array((text + "\n").utf8))
    } catch let failure {
      Glibc.exit((failure as? ExitCode ?? ExitStatus.ioError).rawValue)
    }
    Glibc.exit(ExitCode.success.rawValue)
  }
}

/// What runs `serve` and `preview`: `inbox-format-server`'s, which links
/// the HTTP server.
package protocol ServerCommands: Sendable {
  /// Serves until SIGTERM or SIGINT.
  func serve(_ command: InboxFormatCommand.Serve) async throws
  /// Previews until SIGTERM or SIGINT.
  func preview(_ command: InboxFormatCommand.Preview) async throws
}
