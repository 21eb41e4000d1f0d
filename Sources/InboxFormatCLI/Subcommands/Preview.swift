package import ArgumentParser
import Foundation
import InboxFormat
import InboxFormatOptions

extension InboxFormatCommand {
  /// `preview`: the Messages screen of a payload file in a browser, live.
  ///
  /// Declared here, run by `inbox-format-server` (``ServerExecutable``),
  /// which resolves the screens' settings as `format` does, watches FILE on
  /// a thread of its own (as `watch` does, with the kernel's inotify), and
  /// hands each reading to the service, which serves the page and its events.
  package struct Preview: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
      commandName: "preview",
      abstract: "Show a payload file as the Messages screen in a browser, following the file and the clock.",
      discussion: """
        Serves GET / (the page), GET /events (its updates, as server-sent events) and \
        everything serve does. --locale takes a list: one screen per locale, side by side. \
        The page follows FILE within a second of a write, a rename onto it or a delete and \
        create, and redraws when a label goes stale; a FILE that does not decode shows its \
        message in a banner over the last good rows. --expect MOCK shows the mock's rows \
        (read as check reads EXPECTED) beside each screen, followed too, and marks every \
        field where check finds a difference. A file of more than 200 rows goes to the page \
        a window at a time, as it scrolls. Listens on loopback unless --host says \
        otherwise, and there answers only requests to a loopback name. SIGTERM or SIGINT \
        ends it with status 0. Exit status: 0 ended by a signal, 64 usage error, 65 a MOCK \
        that is not rows, 66 FILE or MOCK cannot be opened.
        """)

    @Argument(help: "The payload file to show.")
    package var file: String

    @Option(
      help: ArgumentHelp(
        "Show these expected rows beside each screen, with every field that differs marked.",
        discussion: "A JSON array of objects with any subset of the row's keys, as check's EXPECTED.",
        valueName: "mock"))
    package var expect: String?

    @OptionGroup package var listening: ListeningOptions

    @OptionGroup package var formatting: FormattingOptions

    @OptionGroup package var reading: MappingOptions

    @OptionGroup package var clockStart: ClockStartOption

    package init() {}

    package func validate() throws {
      if file == "-" { throw ValidationError("preview needs a file; standard input cannot be watched") }
      if expect == "-" { throw ValidationError("--expect needs a file; standard input cannot be watched") }
      if formatting.fields != nil {
        throw ValidationError("--fields does not apply to preview: the page asks for the fields its rows show")
      }
      _ = try clockStart.clock(given: formatting)
      _ = try localeNames()
    }

    /// Hands the process over to the server executable, which parses
    /// the same arguments and previews (``ServerCommands/preview(_:)``), as
    /// ``InboxFormatCommand/main(server:)`` does without a server.
    package func run() async throws {
      try ServerExecutable.replaceProcess()
    }

    /// `--locale`'s list (`en-US,ar-EG,ja-JP`), or nil for the one the
    /// environment gives; each is read by `format`'s rules when the screens
    /// are made.
    package func localeNames() throws -> [String?] {
      guard let locale = formatting.locale else { return [nil] }
      let names = locale.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard names.count <= PreviewLimits.mostLocales else {
        throw ValidationError(
          "--locale lists \(names.count) locales; a preview shows at most \(PreviewLimits.mostLocales)")
      }
      return names
    }
  }
}
