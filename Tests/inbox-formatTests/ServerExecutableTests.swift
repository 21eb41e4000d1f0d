import Foundation
import Testing

/// `serve` and `preview` run in `inbox-format-server`, which `inbox-format`
/// replaces itself with: the same process, arguments and environment; and
/// without it, status 69 for those two while every other subcommand works.
@Suite struct ServerExecutableTests {
  /// A copy of the built command in a directory of its own, without the server executable.
  static func loneCommand() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-alone-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent("inbox-format")
    try FileManager.default.copyItem(at: BuiltBinary.url, to: copy)
    return copy
  }

  /// Runs `executable` with `arguments` and only PATH in its environment.
  ///
  /// The copy just written can be busy for a moment (`ETXTBSY`): a process
  /// another test starts meanwhile inherits the copy's open descriptor
  /// until it runs its own program. Starting again a little later finds it
  /// closed.
  static func run(_ executable: URL, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    var attempts = 0
    while true {
      do {
        return try runOnce(executable, arguments)
      } catch let error as NSError where isBusy(error) && attempts < 200 {
        attempts += 1
        Thread.sleep(forTimeInterval: 0.01)
      }
    }
  }

  private static func isBusy(_ error: NSError) -> Bool {
    let cause = error.userInfo[NSUnderlyingErrorKey] as? NSError ?? error
    return cause.domain == NSPOSIXErrorDomain && cause.code == Int(POSIXErrorCode.ETXTBSY.rawValue)
  }

  private static func runOnce(_ executable: URL, _ arguments: [String]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = output.fileHandleForReading.readDataToEndOfFile()
    let stderr = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
  }

  @Test(arguments: [["serve", "--port", "0"], ["preview", "--port", "0", "payload.json"]])
  func withoutTheServerExecutableServeAndPreviewExit69(arguments: [String]) throws {
    let command = try Self.loneCommand()
    defer { try? FileManager.default.removeItem(at: command.deletingLastPathComponent()) }
    let result = try Self.run(command, arguments)
    #expect(result.status == 69)
    #expect(result.stdout.isEmpty)
    // The two paths looked at, quoted as every file name is (cut at 60 characters).
    #expect(
      result.stderr.hasPrefix(
        "inbox-format: serve and preview need inbox-format-server, which is not installed: neither \""))
    #expect(result.stderr.hasSuffix("/inbox-format-server\" exists\n"))
    #expect(result.stderr.contains("/inbox-format-server\" nor \""))
  }

  /// Everything else is the command's own: help (serve's included), the
  /// version, formatting, the mappings.
  @Test func withoutTheServerExecutableTheRestWorks() throws {
    let command = try Self.loneCommand()
    defer { try? FileManager.default.removeItem(at: command.deletingLastPathComponent()) }
    let help = try Self.run(command, ["serve", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--max-body-size <bytes>"))
    #expect(try Self.run(command, ["--version"]) == (0, "0.1.0\n", ""))
    let example = [
      "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris",
      dataDirectory.appendingPathComponent("examples/messages.json").path,
    ]
    let rows = try Self.run(command, example)
    #expect(rows.status == 0)
    #expect(rows.stdout == (try BuiltBinary.run(example)).stdoutText)
    let mappings = try Self.run(command, ["mappings"])
    #expect(mappings.status == 0 && mappings.stdout.contains("sendbird"))
    // A usage error is found before the server executable is looked for.
    let usage = try Self.run(command, ["serve", "--port", "70000"])
    #expect(usage.status == 64)
  }

  /// The server is the process the command started (a supervisor's signals
  /// reach it), named as the command (`pgrep -x inbox-format` finds it),
  /// and sees the environment the command was given, the variables the
  /// command keeps from ICU included.
  @Test func theServerIsTheSameProcessWithTheSameEnvironment() async throws {
    let server = try ServerProcess(["serve", "--port", "0"], environment: ["LC_ALL": "de_DE.UTF-8"])
    let process = "/proc/\(server.process.processIdentifier)"
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "\(process)/exe")
    #expect(executable.hasSuffix("/inbox-format-server"))
    #expect(try String(contentsOfFile: "\(process)/comm", encoding: .utf8) == "inbox-format\n")
    let answer = try await server.post("/v1/rows?now=2022-01-31T12:00:00Z", body: Data("[]".utf8))
    #expect(answer.head.contains("Content-Language: de-DE"))
    #expect(server.terminate() == (0, false))
  }
}
