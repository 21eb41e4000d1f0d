import Foundation
import Testing

/// Runs the `inbox-format` executable that `swift build` put beside this test bundle.
enum BuiltBinary {
  /// What one run produced.
  struct Result {
    var status: Int32
    /// Whether a signal ended the process (`status` is then its number).
    var wasSignaled = false
    var stdout: Data
    var stderr: String
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// The executable, found next to the running test bundle so that any
  /// `--scratch-path` works.
  static let url: URL = {
    let testBinary = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
    return testBinary.deletingLastPathComponent().appendingPathComponent("inbox-format")
  }()

  /// The tests write to pipes whose reader may be gone (a command that
  /// refuses its input stops reading it): that must be EPIPE for the
  /// writer, not the end of the test runner.
  static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// Runs the binary with `arguments`, `stdin` as standard input, and only
  /// the environment given (plus PATH), so the caller's locale and zone never leak in.
  static func run(_ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]) throws -> Result {
    ignoreBrokenPipes
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Drain both pipes while writing stdin, so a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var stdout = Data()
    nonisolated(unsafe) var stderr = Data()
    DispatchQueue.global().async(group: group) { stdout = output.fileHandleForReading.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { stderr = errors.fileHandleForReading.readDataToEndOfFile() }
    try? input.fileHandleForWriting.write(contentsOf: stdin)
    try? input.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, wasSignaled: process.terminationReason == .uncaughtSignal, stdout: stdout,
      stderr: String(decoding: stderr, as: UTF8.self))
  }
}

/// The repository's `Data/` folder, found from this file.
let dataDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Data")

extension BuiltBinary {
  /// The names `subcommand` declares, as ArgumentParser reports them
  /// (`--experimental-dump-help`): one "kind name-kind name" line each
  /// (`option long locale`, `flag short h`).
  static func declaredNames(of subcommand: String) throws -> Set<String> {
    let dump = try run([subcommand, "--experimental-dump-help"])
    let tool = try #require(JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
    let command = try #require(tool["command"] as? [String: Any])
    let arguments = try #require(command["arguments"] as? [[String: Any]])
    var declared: Set<String> = []
    for argument in arguments {
      for name in argument["names"] as? [[String: String]] ?? [] {
        declared.insert("\(argument["kind"] ?? "") \(name["kind"] ?? "") \(name["name"] ?? "")")
      }
    }
    return declared
  }
}
