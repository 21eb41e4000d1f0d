import ArgumentParser
import Foundation
import InboxFormat
import InboxFormatServer
import InboxFormatSupport
import Logging

extension InboxFormatCommand {
  /// `serve`: the formatting service, until SIGTERM or SIGINT.
  ///
  /// A thin front: it resolves the defaults as `format` does and hands them
  /// to ``runServer(_:logger:)``, which owns everything HTTP.
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

    @OptionGroup var listening: ListeningOptions

    @OptionGroup var formatting: FormattingOptions

    @OptionGroup var reading: MappingOptions

    @Option(
      help: ArgumentHelp(
        "A directory of mapping files (NAME.json), read once at start, that requests may name with map=NAME.",
        valueName: "dir"))
    var mappings: String?

    @Option(help: ArgumentHelp("The largest request body read, in bytes; a larger one gets 413.", valueName: "bytes"))
    var maxBodySize = 8 << 20

    @Option(
      help: ArgumentHelp(
        "The most requests answered at once, once their bodies are read; the next gets 503.", valueName: "n"))
    var maxRequestsInFlight = 256

    @Option(
      help: ArgumentHelp(
        "The most bytes of request bodies held at once, until their answers are written; a body past it gets 503.",
        valueName: "bytes"))
    var maxBodyMemory = 128 << 20

    @Option(
      help: ArgumentHelp(
        "Seconds a connection may idle, take to send a request's head, or leave an answer unread.",
        valueName: "seconds"))
    var idleTimeout = 10

    @Option(help: ArgumentHelp("Seconds a client has to send a whole request body.", valueName: "seconds"))
    var bodyTimeout = 30

    @Option(
      help: ArgumentHelp(
        "A JSON or YAML file of settings, keyed by the options' names, for the options the command line "
          + "and the environment leave out.",
        discussion: "Default: INBOX_FORMAT_CONFIG when set. .json is JSON, .yaml and .yml YAML; another name "
          + "is JSON if it starts with {.",
        valueName: "file"))
    var config: String?

    @Flag(help: "Print the settings in effect, each with where it came from, and exit.")
    var printConfig = false

    func validate() throws {
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
    func check(environment: ProcessEnvironment) throws -> FormattingContext {
      guard maxBodyMemory >= maxBodySize else {
        throw ValidationError(
          "--max-body-memory must be at least --max-body-size (\(maxBodySize)), not \(maxBodyMemory)")
      }
      return try formatting.context(environment: environment)
    }

    func run() async throws {
      listening.startLog()
      let settings = try ServeSettings.resolve(
        self, arguments: CommandLineArguments.strings, environment: ProcessEnvironment.current)
      settings.serve.listening.startLog()
      if printConfig { return try StandardOutput.write(Array(settings.table().utf8)) }
      try await settings.serve.serve(context: settings.context, environment: ProcessEnvironment.current)
    }

    /// Serves with these settings, and `context` as they resolved it, until
    /// SIGTERM or SIGINT.
    private func serve(context: FormattingContext, environment: ProcessEnvironment) async throws {
      var configuration = ServerConfiguration(
        defaults: context, frozenNow: try formatting.frozenNow(environment: environment))
      configuration.maxBodySize = maxBodySize
      configuration.maxRequestsInFlight = maxRequestsInFlight
      configuration.maxBodyMemory = maxBodyMemory
      configuration.idleTimeout = .seconds(idleTimeout)
      configuration.bodyTimeout = .seconds(bodyTimeout)
      configuration.clock = environment.clock
      configuration.mapping = try reading.mapping()
      if let mappings { configuration.mappings += try MappingDirectory.read(mappings) }
      try await listening.run(configuration, serving: "serving")
    }
  }
}

/// Where `serve` and `preview` listen, and what they log.
struct ListeningOptions: ParsableArguments {
  @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
  var host = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "The port to listen on; 0 takes a free one (the line on standard error says which).", valueName: "port"))
  var port = 8080

  @Option(help: "The least important log lines written (the access log is info).")
  var logLevel: LogLevel = .info

  @Option(
    help: ArgumentHelp(
      "How log lines are written on standard error: text, or one JSON object per line.", valueName: "text|json"))
  var logFormat: LogFormatOption = .text

  @Option(
    help: ArgumentHelp(
      "Seconds from SIGTERM during which GET /readyz answers 503 and every request is still answered, "
        + "before the server stops accepting.", valueName: "seconds"))
  var drainDelay = 0

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "Whether GET /metrics answers the service's counts (requests, limits, caches; never a payload) "
        + "in the Prometheus text format."))
  var metrics = true

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, not \(port)") }
    guard !host.isEmpty else { throw ValidationError("--host needs an address; it is empty") }
    guard (0...3600).contains(drainDelay) else {
      throw ValidationError("--drain-delay must be from 0 to 3600, not \(drainDelay)")
    }
  }

  /// Runs the server of `configuration` on this address until SIGTERM or
  /// SIGINT, saying where on standard error (`inbox-format: serving on
  /// http://127.0.0.1:8080`); one that cannot listen exits 74.
  func run(_ configuration: ServerConfiguration, serving what: String) async throws {
    var configuration = configuration
    configuration.host = host
    configuration.port = port
    configuration.drainDelay = .seconds(drainDelay)
    configuration.metrics = metrics
    configuration.version = InboxFormatCommand.configuration.version
    configuration.onListening = { host, port in
      let address = host.contains(":") ? "[\(host)]" : host
      StandardError.write("inbox-format: \(what) on http://\(address):\(port)", level: .notice)
    }
    StandardErrorLogHandler.bootstrap(level: logLevel.level, format: logFormat.format)
    defer { StandardErrorLogHandler.flush() }
    do {
      try await runServer(configuration, logger: Logger(label: "inbox-format"))
    } catch {
      StandardError.write(
        "inbox-format: cannot serve on \(InboxFormatSupport.quoted(host)) port \(port): \(OneLine.safe(String(describing: error)))",
        level: .error)
      throw ExitStatus.ioError
    }
  }

  /// From here on, the command's own lines on standard error (where it
  /// listens, why it cannot, a file's problems) follow `--log-format`: in
  /// JSON, each is a log line, whatever `--log-level`, so that every line
  /// is one object.
  func startLog() {
    StandardError.isJSON.store(logFormat == .json, ordering: .relaxed)
  }
}

/// `--log-format`.
enum LogFormatOption: String, ExpressibleByArgument, CaseIterable {
  case text, json

  var format: LogFormat { LogFormat(rawValue: rawValue)! }
}

/// `--log-level`.
enum LogLevel: String, ExpressibleByArgument, CaseIterable {
  case trace, debug, info, notice, warning, error, critical

  var level: Logger.Level { Logger.Level(rawValue: rawValue)! }
}
