import ArgumentParser
import Foundation
import InboxFormat
import InboxFormatOptions
import InboxFormatServer
import Synchronization

extension InboxFormatCommand {
  /// `preview`: the Messages screen of a payload file in a browser, live.
  ///
  /// A thin front: it resolves the screens' settings as `format` does,
  /// watches FILE on a thread of its own (as `watch` does, with the
  /// kernel's inotify), and hands each reading to the service, which
  /// serves the page and its events (``runServer(_:logger:)``).
  struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
    var file: String

    @Option(
      help: ArgumentHelp(
        "Show these expected rows beside each screen, with every field that differs marked.",
        discussion: "A JSON array of objects with any subset of the row's keys, as check's EXPECTED.",
        valueName: "mock"))
    var expect: String?

    @OptionGroup var listening: ListeningOptions

    @OptionGroup var formatting: FormattingOptions

    @OptionGroup var reading: MappingOptions

    @OptionGroup var clockStart: ClockStartOption

    func validate() throws {
      if file == "-" { throw ValidationError("preview needs a file; standard input cannot be watched") }
      if expect == "-" { throw ValidationError("--expect needs a file; standard input cannot be watched") }
      if formatting.fields != nil {
        throw ValidationError("--fields does not apply to preview: the page asks for the fields its rows show")
      }
      _ = try clockStart.clock(given: formatting)
      _ = try localeNames()
    }

    func run() async throws {
      listening.startLog()
      let environment = ProcessEnvironment.current
      let contexts = try localeNames().map { name in
        var screen = formatting
        screen.locale = name
        return try screen.context(environment: environment)
      }
      let first = contexts[0]
      var configuration = ServerConfiguration(
        defaults: first, frozenNow: try formatting.frozenNow(environment: environment))
      if let running = try clockStart.clock(given: formatting) {
        configuration.clock = { running.now() }
      } else {
        configuration.clock = environment.clock
      }
      configuration.mapping = try reading.mapping()
      let source = PreviewSource()
      let formatter = InboxFormatter(context: first, mapping: configuration.mapping)
      try FileWatcher.start(file, into: source) { input, bytes throws(FileWatcher.Rejected) in
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
      if let expect {
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
      let fileName = FileName(argument: file).quoted
      configuration.preview = PreviewConfiguration(
        source: source, locales: contexts.map(\.locale), fileName: fileName, expected: expected)
      try await listening.run(configuration, serving: "previewing \(fileName)")
    }

    /// `--locale`'s list (`en-US,ar-EG,ja-JP`), or nil for the one the
    /// environment gives; each is read by `format`'s rules when the screens
    /// are made.
    private func localeNames() throws -> [String?] {
      guard let locale = formatting.locale else { return [nil] }
      let names = locale.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard names.count <= PreviewConfiguration.mostLocales else {
        throw ValidationError(
          "--locale lists \(names.count) locales; a preview shows at most \(PreviewConfiguration.mostLocales)")
      }
      return names
    }
  }
}

/// Reads a previewed file (the payload, or the mock) at start and after
/// each change the kernel reports, on a thread of its own, and hands each
/// reading to the source: its bytes when `accept` takes them, else its
/// message, which is also written on standard error.
enum FileWatcher {
  /// Why a reading is not shown: the message, located, as the command words it.
  struct Rejected: Error {
    var message: String
  }

  /// What a reading must be to be shown: returns how many rows it makes,
  /// throws ``Rejected`` when it is not.
  typealias Accept = @Sendable (InputSource, [UInt8]) throws(Rejected) -> Int

  /// Starts watching `path`, and returns once the first reading is in
  /// `source`. Throws the exit status when the file cannot be opened at
  /// start (66) or watched (74), and with `exitingOnFirstRejection`, when
  /// its first reading is rejected (65); otherwise a rejected reading is
  /// shown.
  static func start(
    _ path: String, into source: PreviewSource, exitingOnFirstRejection: Bool = false,
    accepting accept: @escaping Accept
  ) throws {
    let started = DispatchSemaphore(value: 0)
    let failure = Mutex<(any Error)?>(nil)
    let thread = Thread {
      // Watching starts before the first reading, so no change falls between them.
      let events: KernelWatchEvents
      do {
        events = try KernelWatchEvents(watching: FileName(argument: path), handlingSignals: false)
        let accepted = try read(input(path, reportingTo: source), accepting: accept, into: source)
        if !accepted && exitingOnFirstRejection { throw ExitStatus.badInput }
      } catch {
        failure.withLock { $0 = error }
        started.signal()
        return
      }
      started.signal()
      watch(path, events: events, accepting: accept, into: source)
    }
    thread.name = "inbox-format watcher"
    thread.start()
    started.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }

  /// Reads the file after each change until the watch itself fails (its
  /// directory went): that is reported, and the page keeps what it has.
  private static func watch(
    _ path: String, events: KernelWatchEvents, accepting accept: Accept, into source: PreviewSource
  ) {
    let input = input(path, reportingTo: source)
    while true {
      do {
        guard try events.next(until: nil) == .fileChanged else { continue }
      } catch {
        source.update(problem: "\(input.displayName) is no longer watched: its directory went")
        return
      }
      // A file that cannot be read has been reported, and its next good state will show.
      _ = try? read(input, accepting: accept, into: source)
    }
  }

  /// The file as an input whose problems go to standard error and to the page.
  private static func input(_ path: String, reportingTo source: PreviewSource) -> InputSource {
    var input = InputSource(path: path, requiresRegularFile: true)
    input.report = { message in
      StandardError.write("inbox-format: \(message)")
      source.update(problem: message)
    }
    return input
  }

  /// Reads `input` once: bytes that `accept` takes go to `source`, and
  /// true is returned; others are reported, and their message goes there
  /// instead.
  private static func read(_ input: InputSource, accepting accept: Accept, into source: PreviewSource) throws -> Bool {
    let bytes = try input.readAll()
    do {
      source.update(payload: bytes, rows: try accept(input, bytes))
      return true
    } catch {
      input.report(error.message)
      return false
    }
  }
}
