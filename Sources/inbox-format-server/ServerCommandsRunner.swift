import ArgumentParser
import Foundation
import InboxFormat
import InboxFormatCLI
import InboxFormatOptions
import InboxFormatServer
import InboxFormatSupport
import Logging
import Synchronization

/// `serve` and `preview` with the service: what ``InboxFormatCommand``
/// runs in this executable once their arguments are parsed and valid.
struct ServerCommandsRunner: ServerCommands {
  func serve(_ command: InboxFormatCommand.Serve) async throws {
    command.listening.startLog()
    let settings = try ServeSettings.resolve(
      command, arguments: CommandLineArguments.strings, environment: ProcessEnvironment.current)
    settings.serve.listening.startLog()
    if command.printConfig { return try StandardOutput.write(Array(settings.table().utf8)) }
    try await settings.serve.serve(context: settings.context, environment: ProcessEnvironment.current)
  }

  func preview(_ command: InboxFormatCommand.Preview) async throws {
    command.listening.startLog()
    let environment = ProcessEnvironment.current
    let contexts = try command.localeNames().map { name in
      var screen = command.formatting
      screen.locale = name
      return try screen.context(environment: environment)
    }
    let first = contexts[0]
    var configuration = ServerConfiguration(
      defaults: first, frozenNow: try command.formatting.frozenNow(environment: environment))
    if let running = try command.clockStart.clock(given: command.formatting) {
      configuration.clock = { running.now() }
    } else {
      configuration.clock = environment.clock
    }
    configuration.mapping = try command.reading.mapping()
    let source = PreviewSource()
    let formatter = InboxFormatter(context: first, mapping: configuration.mapping)
    try FileWatcher.start(command.file, into: source) { input, bytes throws(FileWatcher.Rejected) in
      do {
        // One row a line: the count tells the page how tall a large file's list is.
        var rows = 0
        try formatter.layout(.ndjson).format(bytes) { chunk in
          rows += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        }
        return rows
      } catch {
        throw FileWatcher.Rejected(message: Rendering.problem(of: input, because: error))
      }
    }
    var expected: PreviewConfiguration.ExpectedFile?
    if let expect = command.expect {
      let mock = PreviewSource()
      // A mock that is not rows at start exits 65; later, its banner shows.
      try FileWatcher.start(expect, into: mock, exitingOnFirstRejection: true) {
        input, bytes throws(FileWatcher.Rejected) in
        do throws(RowCheck.Unusable) {
          return try RowCheck.expectedRows(decoding: bytes).count
        } catch {
          throw FileWatcher.Rejected(message: "\(input.displayName): \(error.reason)")
        }
      }
      expected = PreviewConfiguration.ExpectedFile(source: mock, fileName: FileName(argument: expect).quoted)
    }
    let fileName = FileName(argument: command.file).quoted
    configuration.preview = PreviewConfiguration(
      source: source, locales: contexts.map(\.locale), fileName: fileName, expected: expected)
    try await command.listening.run(configuration, serving: "previewing \(fileName)")
  }
}

extension InboxFormatCommand.Serve {
  /// Serves with these settings, and `context` as they resolved it, until
  /// SIGTERM or SIGINT.
  fileprivate func serve(context: FormattingContext, environment: ProcessEnvironment) async throws {
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

extension ListeningOptions {
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
    let jsonLine: (@Sendable (String, LogLevel) -> Void)? =
      switch logFormat {
      case .json:
        { message, level in
          StandardErrorLogHandler.announce(message, level: level.level, format: .json)
          StandardErrorLogHandler.flush()
        }
      case .text: nil
      }
    StandardError.jsonLine.withLock { $0 = jsonLine }
  }
}

extension LogFormatOption {
  var format: LogFormat {
    switch self {
    case .text: .text
    case .json: .json
    }
  }
}

extension LogLevel {
  var level: Logger.Level {
    switch self {
    case .trace: .trace
    case .debug: .debug
    case .info: .info
    case .notice: .notice
    case .warning: .warning
    case .error: .error
    case .critical: .critical
    }
  }
}
