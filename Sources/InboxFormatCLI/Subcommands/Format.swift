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

    @OptionGroup var reading: MappingOptions

    @Option(help: "The output: a JSON array, one JSON object per line, or the inbox view.")
    var output: OutputFormat = .byDefault

    @Flag(help: "Indent the JSON array (with --output json).")
    var pretty = false

    @Flag(
      help: ArgumentHelp(
        "Leave out invalid messages instead of failing, each reported on standard error.",
        discussion: "Exits 3 when any was left out. The input must still be JSON: a syntax error outside NDJSON fails.")
    )
    var skipInvalid = false

    func validate() throws {
      if pretty && output != .json {
        throw ValidationError("--pretty applies to --output json only")
      }
    }

    func run() throws {
      let environment = ProcessEnvironment.current
      let context = try formatting.context(environment: environment)
      let mapping = try reading.mapping()
      let input = InputSource(path: file)
      let report = skipInvalid ? SkipReport(input: input) : nil
      let layout: InboxEncoder.Layout =
        switch output {
        case .json: pretty ? .pretty : .compact
        case .ndjson: .ndjson
        case .text: Terminal.standardOutputLayout(environment: environment)
        }
      // Reading, mapping and writing overlap, NDJSON streams in bounded
      // memory, and output is held back until the input has proved valid,
      // up to a bound.
      var output = HeldBackOutput()
      try Rendering.format(
        input, with: InboxFormatter(context: context, layout: layout, mapping: mapping), skipping: report
      ) {
        try output.write($0)
      }
      try output.flush()
      if report?.summarize() == true { throw ExitStatus.skippedInvalid }
    }
  }
}

/// The shape of the formatted output.
enum OutputFormat: String, OptionChoice {
  case json
  case ndjson
  /// The inbox view, for a person at a terminal.
  case text

  /// The output when `--output` is not given.
  static let byDefault = OutputFormat.json
}
