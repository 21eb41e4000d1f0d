import ArgumentParser
import Foundation
import Glibc
import InboxFormat
import InboxFormatOptions

extension InboxFormatCommand {
  /// `watch`: a live inbox that follows the file and the clock.
  ///
  /// A plain `ParsableCommand`: the loop blocks in poll(2) on the main thread
  /// until the kernel has something for it, so there is nothing to await.
  struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Render a payload file, then again whenever it changes and whenever a date label goes stale.",
      discussion: """
        Renders at start; again when FILE is written, replaced by a rename, or deleted and \
        created again (bursts of changes give one render); and again at the first local \
        midnight that changes a label shown. A file that does not decode, is removed or \
        cannot be read gets one line on standard error, and the last good output stays. \
        An output file that cannot be written (a full disk) is reported, kept as it was, \
        and written again once it can be. SIGINT, SIGTERM and SIGHUP end the watch with \
        status 0; SIGUSR1, SIGUSR2 and SIGALRM are ignored.
        """)

    @Argument(help: "The payload file to watch.")
    var file: String

    @OptionGroup var formatting: FormattingOptions

    @OptionGroup var reading: MappingOptions

    @Option(
      help: ArgumentHelp(
        "Replace this file atomically with each render instead of writing to standard output.",
        valueName: "file"))
    var output: String?

    @Option(help: "Each render as a JSON array on one line, or as the inbox view.")
    var format: WatchFormat = .json

    @Flag(help: "Leave out invalid messages instead of keeping the last good output, each reported on standard error.")
    var skipInvalid = false

    @OptionGroup var clockStart: ClockStartOption

    func validate() throws {
      if file == "-" {
        throw ValidationError("watch needs a file; standard input cannot be watched")
      }
      _ = try clockStart.clock(given: formatting)
      if let output { try OutputFile.check(FileName(argument: output), watching: FileName(argument: file)) }
    }

    func run() throws {
      let environment = ProcessEnvironment.current
      let context = try formatting.context(environment: environment)
      let clock = try self.clock(environment: environment)
      // Watching starts before the first reading, so no change falls between them.
      let events = try KernelWatchEvents(watching: FileName(argument: file))
      let input = InputSource(path: file, requiresRegularFile: true)
      // Built once: each render is the same formatter at another instant.
      let formatter = InboxFormatter(context: context, mapping: try reading.mapping())
      let layout = layout(environment: environment)
      let render = { [skipInvalid] (payload: [UInt8], now: Date, isNew: Bool) throws -> Frame in
        let report = skipInvalid && isNew ? SkipReport(input: input) : nil
        var output: [UInt8] = []
        do {
          let validUntil = try formatter.layout(layout()).now(now).format(
            payload, skipInvalid: skipInvalid ? { report?.skip($0) } : nil
          ) { output += $0 }
          _ = report?.summarize()
          return Frame(output: output, validUntil: validUntil)
        } catch let error as InboxFormatError {
          // Reported; the file is being edited, and its next good state will show.
          throw isNew ? Rendering.refusal(of: input, because: error) : error
        }
      }
      var loop = WatchLoop(
        clock: clock, events: events, load: { try? input.readAll() }, render: render,
        show: destination(environment: environment))
      try loop.run(initial: try input.readAll())
    }

    private func clock(environment: ProcessEnvironment) throws -> any WatchClock {
      if let running = try clockStart.clock(given: formatting) { return running }
      if let frozen = try formatting.frozenNow(environment: environment) { return FrozenClock(instant: frozen) }
      return RunningClock()
    }

    /// The layout of each render, asked for at each: a terminal may have
    /// been resized.
    private func layout(environment: ProcessEnvironment) -> () -> InboxEncoder.Layout {
      switch (output, format) {
      case (_, .json): { .compact }
      case (_?, .text): { Terminal.fileLayout(environment: environment) }
      case (nil, .text): { Terminal.standardOutputLayout(environment: environment, fillsScreen: true) }
      }
    }

    /// Where each render goes: the output file, replaced whole; or standard
    /// output, a line of JSON or the view, redrawn in place on a terminal.
    private func destination(environment: ProcessEnvironment) -> ([UInt8]) throws -> Void {
      if let output = output.map(FileName.init(argument:)) {
        let file = FileName(argument: self.file)
        return { render in
          // Checked at every write: `later/../in.json` becomes FILE once `later/` exists.
          if OutputFile.isSameFile(output, as: file) {
            throw OutputFault(output: output.quoted, reason: "it is the watched file")
          }
          try AtomicFile.replace(output, with: render)
        }
      }
      switch format {
      case .json: return { try StandardOutput.write($0) }
      case .text:
        return { view in
          guard Terminal.size(of: STDOUT_FILENO) != nil else {
            // Not a terminal: one view after another, a blank line between.
            try StandardOutput.write(view + Array("\n".utf8))
            return
          }
          // Home, then each line erased as it is written and the rest of the
          // screen after it: no flicker, and nothing left of a longer view.
          let lines = String(decoding: view, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
          let screen = "\u{1B}[H" + lines.map { "\u{1B}[2K\($0)\n" }.joined() + "\u{1B}[J"
          try StandardOutput.write(Array(screen.utf8))
        }
      }
    }
  }
}

/// The form of each render in `watch`.
enum WatchFormat: String, OptionChoice {
  case json
  case text
}

/// The output file of `watch`, checked before anything is written: it must
/// never be the watched file, however spelled.
enum OutputFile {
  /// Throws a usage error for an empty OUT, an OUT that is a directory, and
  /// an OUT that is the watched file itself: the same file (device and
  /// inode) through `..`, a symbolic link or a hard link.
  static func check(_ output: FileName, watching file: FileName) throws {
    guard !output.isEmpty else { throw ValidationError("--output needs a file name; it is empty") }
    var outputStatus = stat()
    // Not there yet: made at the first render.
    guard output.withCString({ stat($0, &outputStatus) }) == 0 else { return }
    if outputStatus.st_mode & S_IFMT == S_IFDIR {
      throw ValidationError("--output \(output.quoted) is a directory; expected a file to write")
    }
    if isSameFile(output, as: file) {
      throw ValidationError("--output \(output.quoted) is the watched file \(file.quoted); expected another file")
    }
  }

  /// Whether `output` and `file` are the same file now: the same device and
  /// inode, whatever the names (`..`, symbolic and hard links).
  static func isSameFile(_ output: FileName, as file: FileName) -> Bool {
    var outputStatus = stat()
    var fileStatus = stat()
    return output.withCString({ stat($0, &outputStatus) }) == 0 && file.withCString({ stat($0, &fileStatus) }) == 0
      && outputStatus.st_dev == fileStatus.st_dev && outputStatus.st_ino == fileStatus.st_ino
  }
}
