import ArgumentParser

/// `inbox-format`: API JSON in, inbox rows out.
@main
struct InboxFormatCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "inbox-format",
    abstract: "Turn a messaging backend's inbox JSON into the rows an inbox screen shows.",
    discussion: """
      Reads {"items":[...]}, a bare JSON array of messages, or NDJSON, and writes one row \
      per message: avatar initials, title, one-line preview, date label and unread state, \
      for the given locale, time zone and clock.

      Exit status: 0 success, 3 invalid messages left out (--skip-invalid), 64 usage \
      error, 65 bad input data, 66 input cannot be opened, 74 I/O error.
      """,
    version: "0.1.0",
    subcommands: [Format.self, Watch.self],
    defaultSubcommand: Format.self
  )
}
