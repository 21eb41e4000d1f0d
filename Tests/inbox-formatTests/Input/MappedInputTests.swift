import Foundation
import InboxFormat
import InboxFormatSupport
import Testing

/// A regular file is mapped instead of read (`OpenInput.mapped()`); it must
/// give what reading gives, and a file cut short under the mapping must end
/// the run as a read error, not a crash.
@Suite struct MappedInputTests {
  /// The same payload from a file (mapped) and from standard input (read):
  /// the same bytes out, valid or not.
  @Test(arguments: [
    #"{"items":[{"id":1,"firstname":"Zoë","update_date":"2022-01-31T08:45:33Z"}]}"#,
    "\u{FEFF}[{\"id\":1,\"update_date\":\"2022-01-31T08:45:33Z\"}]\n",
    "{\"id\":1,\"update_date\":\"2022-01-31T08:45:33Z\"}\n{\"id\":2,\"update_date\":\"2022-01-30T08:45:33Z\"}\n",
    #"[{"id":1,"update_date":"2022-01-31T08:45:33Z"},{"id":2}]"#,
  ])
  func aMappedFileGivesWhatReadingGives(payload: String) throws {
    let file = try TemporaryFile(Array(payload.utf8))
    let mapped = try BuiltBinary.run(CommandLineTests.pinned + [file.path])
    let read = try BuiltBinary.run(CommandLineTests.pinned, stdin: Data(payload.utf8))
    #expect(mapped.status == read.status)
    #expect(mapped.stdout == read.stdout)
    #expect(
      mapped.stderr == read.stderr.replacingOccurrences(of: "<stdin>", with: quoted(bytes: Array(file.path.utf8))))
  }

  /// Standard input that is a file read partly before (`(dd …; inbox-format)
  /// < file`) is read from where it stands, not mapped from its start.
  @Test func aFileOnStandardInputIsReadFromItsOffset() throws {
    let payload = #"[{"id":1,"firstname":"Zoë","update_date":"2022-01-31T08:45:33Z"}]"#
    let file = try TemporaryFile(Array(("skip" + payload).utf8))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    let command = "dd bs=1 count=4 of=/dev/null 2>/dev/null && exec \"$0\" \"$@\""
    process.arguments = ["-c", command, BuiltBinary.url.path] + CommandLineTests.pinned
    process.environment = ["PATH": "/usr/bin:/bin"]
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file.path))
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let rows = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let expected = try BuiltBinary.run(CommandLineTests.pinned, stdin: Data(payload.utf8))
    #expect(process.terminationStatus == 0)
    #expect(rows == expected.stdout)
  }

  /// The file is cut to a megabyte once the command has mapped it (seen in
  /// /proc/PID/maps), long before it can have read 100 MB: the next page it
  /// touches past the new end raises SIGBUS, which must become status 74
  /// and one line on standard error.
  @Test func aFileCutShortWhileMappedIsAReadError() throws {
    let text = String(repeating: "abcdefghij", count: 100)
    let row = #"{"id":1,"firstname":"Ann","update_date":"2022-01-31T08:45:33Z","message":"\#(text)"}"#
    let payload = "[" + Array(repeating: row, count: 100_000).joined(separator: ",") + "]"
    let file = try TemporaryFile(Array(payload.utf8))

    let process = Process()
    process.executableURL = BuiltBinary.url
    process.arguments = CommandLineTests.pinned + [file.path]
    process.environment = ["PATH": "/usr/bin:/bin"]
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let maps = "/proc/\(process.processIdentifier)/maps"
    let deadline = Date().addingTimeInterval(10)
    var wasMapped = false
    while !wasMapped, process.isRunning, Date() < deadline {
      wasMapped = (try? String(contentsOfFile: maps, encoding: .utf8))?.contains(file.path) ?? false
      if !wasMapped { usleep(200) }
    }
    #expect(wasMapped)
    #expect(truncate(file.path, 1 << 20) == 0)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 74)
    #expect(stderr == "inbox-format: cannot read the input: the file was cut short while it was read\n")
  }
}
