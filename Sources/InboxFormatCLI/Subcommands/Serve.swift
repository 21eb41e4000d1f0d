package import ArgumentParser
import Foundation
package import InboxFormat

extension InboxFormatCommand {
  /// `serve`: the formatting service, until SIGTERM or SIGINT.
  ///
  /// Declared here, run by `inbox-format-server` (``ServerExecutable``),
  /// which resolves the defaults as `format` does and hands them to the
  /// service, which owns everything HTTP.
  package struct Serve: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
      commandName: "serve",
      abstract: "Serve POST /v1/rows over HTTP: a payload in, the rows out, as format writes them.",
      discussion: """
        The formatting options set the defaults of requests that do not name their own. \
        Listens on loopback unless --host says otherwise, logs one line per request on \
        standard error (as text, or JSON with --log-format json), and on SIGTERM or SIGINT \
        turns GET /readyz to 503, answers everything for --drain-delay seconds, then stops \
        accepting, answers what it accepted and exits 0. GET /metrics gives its counts in the \
        Prometheus text format (--no-metrics turns it off). See GET /openapi.yaml for the API.

        Each option but --config and --print-config can also come from an environment variable, \
        INBOX_FORMAT_ and the option's name in upper case with _ for - (INBOX_FORMAT_PORT, \
        INBOX_FORMAT_MAX_BODY_SIZE, INBOX_FORMAT_METRICS=false), or from the --config file, under the \
        option's name ({"port": 8081, "max-body-size": 1048576, "metrics": false}). The command line \
        wins over the environment, and the environment over the file; --print-config shows the \
        settings in effect and where each came from.
        """)

    @OptionGroup package var listening: ListeningOptions

    @OptionGroup package var formatting: FormattingOptions

    @OptionGroup package var reading: MappingOptions

    @Option(
      help: ArgumentHelp(
        "A directory of mapping files (NAME.json), read once at start, that requests may name with map=NAME.",
        valueName: "dir"))
    package var mappings: String?

    @Option(help: ArgumentHelp("The largest request body read, in bytes; a larger one gets 413.", valueName: "bytes"))
    package var maxBodySize = 8 << 20

    @Option(
      help: ArgumentHelp(
        "The most requests answered at once, once their bodies are read; the next gets 503.", valueName: "n"))
    package var maxRequestsInFlight = 256

    @Option(
      help: ArgumentHelp(
        "The most bytes of request bodies held at once, until their answers are written; a body past it gets 503.",
        valueName: "bytes"))
    package var maxBodyMemory = 128 << 20

    @Option(
      help: ArgumentHelp(
        "Seconds a connection may idle, take to send a request's head, or leave an answer unread.",
        valueName: "seconds"))
    package var idleTimeout = 10

    @Option(help: ArgumentHelp("Seconds a client has to send a whole request body.", valueName: "seconds"))
    package var bodyTimeout = 30

    @Option(
      help: ArgumentHelp(
        "A JSON or YAML file of settings, keyed by the options' names, for the options the command line "
          + "and the environment leave out.",
        discussion: "Default: INBOX_FORMAT_CONFIG when set. .json is JSON, .yaml and .yml YAML; another name "
          + "is JSON if it starts with {.",
        valueName: "file"))
    package var config: String?

    @Flag(help: "Print the settings in effect, each with where it came from, and exit.")
    package var printConfig = false

    package init() {}

    package func validate() throws {
      guard maxBodySize >= 1 else { throw ValidationError("--max-body-size must be at least 1, not \(maxBodySize)") }
      guard maxRequestsInFlight >= 1 else {
        throw ValidationError("--max-requests-in-flight must be at least 1, not \(maxRequestsInFlight)")
      }
      guard (1...3600).contains(idleTimeout) else {
        throw ValidationError("--idle-timeout must be from 1 to 3600, not \(idleTimeout)")
      }
      guard (1...3600).contains(bodyTimeout) else {
        throw ValidationError("--body-timeout must be from 1 to 3600, not \(bodyTimeout)")
      }
    }

    /// What `validate` cannot check: values against one another, once the
    /// environment and the config file have given theirs, and the
    /// formatting options against the environment's locale and zone.
    /// Returns the formatting context, which serving then starts from.
    package func check(environment: ProcessEnvironment) throws -> FormattingContext {
      guard maxBodyMemory >= maxBodySize else {
        throw ValidationError(
          "--max-body-memory must be at least --max-body-size (\(maxBodySize)), not \(maxBodyMemory)")
      }
      return try formatting.context(environment: environment)
    }

    /// Hands the process over to the server executable, which parses
    /// the same arguments and serves (``ServerCommands/serve(_:)``), as
    /// ``InboxFormatCommand/main(server:)`` does without a server.
    package func run() async throws {
      try ServerExecutable.replaceProcess()
    }
  }
}

/// Where `serve` and `preview` listen, and what they log.
package struct ListeningOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
  package var host = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "The port to listen on; 0 takes a free one (the line on standard error says which).", valueName: "port"))
  package var port = 8080

  @Option(help: "The least important log lines written (the access log is info).")
  package var logLevel: LogLevel = .info

  @Option(
    help: ArgumentHelp(
      "How log lines are written on standard error: text, or one JSON object per line.", valueName: "text|json"))
  package var logFormat: LogFormatOption = .text

  @Option(
    help: ArgumentHelp(
      "Seconds from SIGTERM during which GET /readyz answers 503 and every request is still answered, "
        + "before the server stops accepting.", valueName: "seconds"))
  package var drainDelay = 0

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Whether GET /metrics answers the service's counts (requests, limits, caches; never a payload) "
        + "in the Prometheus text format."))
  package var metrics = true

  package init() {}

  package func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
    guard !host.isEmpty else { throw ValidationError("--host needs an address; it is empty") }
    guard (0...3600).contains(drainDelay) else {
      throw ValidationError("--drain-delay must be from 0 to 3600, not \(drainDelay)")
    }
  }
}

/// `--log-format`.
package enum LogFormatOption: String, OptionChoice, Sendable {
  case text, json
}

/// `--log-level`.
package enum LogLevel: String, OptionChoice, Sendable {
  case trace, debug, info, notice, warning, error, critical
}
