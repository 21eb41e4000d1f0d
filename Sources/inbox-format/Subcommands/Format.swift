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

    @Option(help: "The output: a JSON array, one JSON object per line, or the inbox view.")
    var output: OutputFormat = .json

    @Flag(help: "Indent the JSON array (with --output json).")
    var pretty = false

    @Flag(
      help: ArgumentHelp(
        "Leave out invalid messages instead of failing, each reported on standard error.",
        discussion: "Exits 3 when any was left out. The input must still be JSON: a syntax error outside NDJSON fails."))
    var skipInvalid = false

    func validate() throws {
      if pretty && output != .json {
        throw ValidationError("--pretty applies to --output json only")
      }
    }

    func run() throws {
      let environment = ProcessEnvironment.current
      let context = try formatting.context(environment: environment)
      let input = InputSource(path: file)
      let report = skipInvalid ? SkipReport(input: input) : nil
      switch output {
      case .json: try formatJSON(input, context: context, layout: pretty ? .pretty : .compact, skipping: report)
      case .ndjson: try formatJSON(input, context: context, layout: .ndjson, skipping: report)
      case .text:
        let rows = MessageMapper(context: context).map(try Rendering.messages(from: input, skipping: report))
        try StandardOutput.write(Rendering.bytes(of: rows, as: .text(Terminal.standardOutputView(environment: environment))))
      }
      if report?.summarize() == true { throw ExitStatus.skippedInvalid }
    }

    /// The fast path: reading, mapping and writing overlap, NDJSON streams
    /// in bounded memory, and output is held back until the input has proved
    /// valid, up to a bound.
    private func formatJSON(
      _ input: InputSource, context: FormattingContext, layout: InboxEncoder.Layout, skipping report: SkipReport?
    ) throws {
      let reader = try input.open()
      let formatter = InboxFormatter(context: context, layout: layout)
      let skip = report.map { $0.skip }
      var output = HeldBackOutput()
      do {
        // A regular file is mapped, unless it is NDJSON: that is read piece
        // by piece, so that its pages do not pile up in memory.
        if let file = reader.mapped(), !InboxFormatter.isNDJSON(file.bytes) {
          try formatter.format(bytes: file.bytes, skipInvalid: skip) { try output.write($0) }
        } else {
          try formatter.format(reading: reader.read, expectedSize: reader.sizeHint, skipInvalid: skip) {
            try output.write($0)
          }
        }
      } catch let error as InboxFormatError {
        throw Rendering.refusal(of: input, because: error)
      }
      try output.flush()
    }
  }
}

/// The shape of the formatted output.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case json
  case ndjson
  /// The inbox view, for a person at a terminal.
  case text
}
