import ArgumentParser
import InboxFormat

extension InboxFormatCommand {
  /// The default subcommand: format a payload once.
  struct Format: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "format",
      abstract: "Format a payload once and write the rows to standard output (the default)."
    )

    @Argument(help: "The payload file; standard input when absent or '-'.")
    var file: String?

    @OptionGroup var formatting: FormattingOptions

    @Option(help: "The output: a JSON array, or one JSON object per line.")
    var output: OutputFormat = .json

    @Flag(help: "Indent the JSON array (with --output json).")
    var pretty = false

    func validate() throws {
      if pretty && output != .json {
        throw ValidationError("--pretty applies to --output json only")
      }
    }

    func run() throws {
      let context = try formatting.context(environment: ProcessEnvironment.current)
      let input = try InputSource(path: file)
      let bytes = try input.readAll()
      let messages: [MessageAPIModel]
      do {
        messages = try InboxDecoder().decode(bytes)
      } catch {
        StandardError.write("inbox-format: \(input.displayName): \(error)")
        throw ExitStatus.badInput
      }
      let rows = MessageMapper(context: context).map(messages)
      let layout: InboxEncoder.Layout = output == .ndjson ? .ndjson : pretty ? .pretty : .compact
      try StandardOutput.write(InboxEncoder(layout: layout).encode(rows))
    }
  }
}

/// The shape of the formatted output.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case json
  case ndjson
}
