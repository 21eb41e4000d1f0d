import Foundation
import Testing

@testable import InboxFormatCLI

/// Standard output that will not take the output, end to end: a write that
/// fails exits 74 with one line on standard error, a reader that went away
/// is success, and neither ends the command by a signal (SIGXFSZ, SIGPIPE).
@Suite struct OutputFailureTests {
  static let pinned = CommandLineTests.pinned

  /// The two ways the output reaches standard output.
  enum Size: CaseIterable, CustomTestStringConvertible, Sendable {
    /// Held back, and written whole once the input has proved valid.
    case heldBack
    /// Past the hold-back limit, so written while the input is still being read.
    case streamed

    var testDescription: String { self == .heldBack ? "output held back" : "output streamed" }

    /// The example payload; or 100,000 messages, each row carrying a
    /// 100-character preview: more than 10 MB of rows.
    func input() throws -> TemporaryFile {
      guard self == .streamed else {
        return try TemporaryFile([UInt8](Data(contentsOf: URL(fileURLWithPath: CommandLineTests.example))))
      }
      let preview = String(repeating: "0123456789", count: 10)
      let line = #"{"id":1,"firstname":"Ann","message":"\#(preview)","update_date":"2022-01-31T08:45:33Z"}"# + "\n"
      #expect(100_000 * preview.utf8.count > HeldBackOutput().limit)
      return try TemporaryFile(Array(String(repeating: line, count: 100_000).utf8), name: "input.ndjson")
    }
  }

  /// `> /dev/full`: every write fails with ENOSPC.
  @Test(arguments: Size.allCases)
  func aFullDiskExitsWithStatus74(_ size: Size) throws {
    let input = try size.input()
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let result = try Self.run(Self.pinned + [input.path], standardOutput: full)
    expectWriteFailure(result, reason: "No space left on device")
  }

  /// `ulimit -f 0`: a write to a regular file fails with EFBIG, and does
  /// not raise SIGXFSZ, whose default action would kill the process. (Today
  /// the writes run on Dispatch workers, which block SIGXFSZ anyway; the
  /// command ignores it so that no thread it writes from can die of it.)
  @Test(arguments: Size.allCases)
  func aFileSizeLimitExitsWithStatus74NotASignal(_ size: Size) throws {
    let input = try size.input()
    let output = try TemporaryFile([], name: "output.json")
    let file = try #require(FileHandle(forWritingAtPath: output.path))
    let result = try Self.run(Self.pinned + [input.path], standardOutput: file, fileSizeLimit: 0)
    expectWriteFailure(result, reason: "File too large")
    #expect(try Data(contentsOf: URL(fileURLWithPath: output.path)).isEmpty)
  }

  /// `inbox-format … | head -c 10`: the reader has what it wanted and
  /// closes the pipe while more than a pipe's buffer (64 KB) is still to
  /// come, so a write meets the closed pipe (EPIPE): the command stops,
  /// quietly and with success, and is not killed by SIGPIPE.
  @Test(arguments: ["json", "ndjson"])
  func aReaderThatStopsEarlyIsSuccess(output format: String) throws {
    let input = try Size.streamed.input()
    let output = Pipe()
    let run = try Self.start(Self.pinned + ["--output", format, input.path], standardOutput: output)
    let head = try #require(try output.fileHandleForReading.read(upToCount: 10))
    try output.fileHandleForReading.close()
    let result = run.finish()
    #expect(!result.wasSignaled, "ended by signal \(result.status)")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let first = format == "json" ? #"[{"id":1,"initials""# : #"{"id":1,"initials""#
    #expect(!head.isEmpty && first.utf8.starts(with: head), "\(String(decoding: head, as: UTF8.self))")
  }

  /// A reader gone before anything is written: the held-back output,
  /// written at the end, meets the closed pipe. (The input comes on standard
  /// input, only once the pipe is closed.)
  @Test func aReaderGoneBeforeTheOutputIsWrittenIsSuccess() throws {
    let payload = try Data(contentsOf: URL(fileURLWithPath: CommandLineTests.example))
    let input = Pipe()
    let output = Pipe()
    let run = try Self.start(Self.pinned, standardInput: input, standardOutput: output)
    try output.fileHandleForReading.close()
    try input.fileHandleForWriting.write(contentsOf: payload)
    try input.fileHandleForWriting.close()
    let result = run.finish()
    #expect(!result.wasSignaled, "ended by signal \(result.status)")
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
  }

  // MARK: Running the binary with its standard output elsewhere

  /// A started run of the binary, its standard error on a pipe.
  struct Run {
    let process: Process
    let errors: Pipe

    /// Waits for the end; the result's `stdout` is empty (it went elsewhere).
    func finish() -> BuiltBinary.Result {
      let stderr = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return BuiltBinary.Result(
        status: process.terminationStatus, wasSignaled: process.terminationReason == .uncaughtSignal, stdout: Data(),
        stderr: String(decoding: stderr, as: UTF8.self))
    }
  }

  /// Starts the built binary as `BuiltBinary.run` does, but with the given
  /// standard input and output; with `fileSizeLimit` (in 512-byte blocks),
  /// under `/bin/sh -c 'ulimit -f …; exec …'`, so that only it has the limit.
  static func start(
    _ arguments: [String], standardInput: Any = FileHandle.nullDevice, standardOutput: Any, fileSizeLimit: Int? = nil
  ) throws -> Run {
    BuiltBinary.ignoreBrokenPipes
    let process = Process()
    if let fileSizeLimit {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", #"ulimit -f \#(fileSizeLimit) && exec "$0" "$@""#, BuiltBinary.url.path] + arguments
    } else {
      process.executableURL = BuiltBinary.url
      process.arguments = arguments
    }
    process.environment = ["PATH": "/usr/bin:/bin"]
    let errors = Pipe()
    process.standardInput = standardInput
    process.standardOutput = standardOutput
    process.standardError = errors
    try process.run()
    return Run(process: process, errors: errors)
  }

  /// Runs the binary to its end with `standardOutput` (closed here once the
  /// binary has its copy).
  static func run(
    _ arguments: [String], standardOutput: FileHandle, fileSizeLimit: Int? = nil
  ) throws -> BuiltBinary.Result {
    let run = try start(arguments, standardOutput: standardOutput, fileSizeLimit: fileSizeLimit)
    try standardOutput.close()
    return run.finish()
  }
}

/// The checks every failed write passes: status 74, not a signal, and one
/// line on standard error saying why.
func expectWriteFailure(
  _ result: BuiltBinary.Result, reason: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(!result.wasSignaled, "ended by signal \(result.status)", sourceLocation: sourceLocation)
  #expect(result.status == 74, "\(result.stderr)", sourceLocation: sourceLocation)
  #expect(result.stderr == "inbox-format: cannot write the output: \(reason)\n", sourceLocation: sourceLocation)
}
