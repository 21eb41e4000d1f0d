import Foundation
import Glibc
import Testing

/// `watch` against signals, an OUT that is FILE in disguise, and a FILE
/// that is a symbolic link. Each test is a few seconds at most.
@Suite struct WatchHostileTests {
  static let options = Array(WatchCommandTests.pinned.dropFirst())
  static func payload(from name: String) -> String { WatchCommandTests.payload(from: name) }

  /// The signal masks of a running process, from /proc: ignored and caught.
  static func signalMasks(of pid: Int32) throws -> (ignored: UInt64, caught: UInt64) {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    func mask(_ name: String) -> UInt64 {
      let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
      return UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? 0
    }
    return (mask("SigIgn"), mask("SigCgt"))
  }

  static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }

  // MARK: Signals

  @Test(arguments: [SIGHUP, SIGINT, SIGTERM])
  func aStoppingSignalEndsWithZeroAndOutWhole(signal: Int32) throws {
    let watch = try WatchRun(
      Self.options.withFile("in.json") + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    #expect(watch.stop(with: signal) == 0)
    #expect(watch.stderr.isEmpty, "\(watch.stderr)")
    #expect((try? JSONSerialization.jsonObject(with: Data(watch.output().utf8))) is [[String: Any]])
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  @Test func signalsThatMeanNothingToAWatchAreIgnored() throws {
    let watch = try WatchRun(
      Self.options.withFile("in.json") + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let masks = try Self.signalMasks(of: watch.processIdentifier)
    for signal in [SIGUSR1, SIGUSR2, SIGALRM] {
      #expect(masks.ignored & Self.bit(signal) != 0, "signal \(signal) not ignored")
      for _ in 0..<3 { kill(watch.processIdentifier, signal) }
    }
    #expect(masks.caught & Self.bit(SIGHUP) != 0 && masks.caught & Self.bit(SIGINT) != 0)
    Thread.sleep(forTimeInterval: 0.2)
    #expect(watch.isRunning)
    // Still watching.
    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.waitForOutput(containing: #""title":"Bob""#))
    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(watch.stderr.isEmpty, "\(watch.stderr)")
  }

  /// Under `nohup`, or as a script's background job, SIGHUP or SIGINT
  /// arrive ignored: they stay so, and SIGTERM still ends the watch.
  @Test func interruptAndHangupInheritedAsIgnoredStayIgnored() throws {
    let watch = try WatchRun(
      Self.options.withFile("in.json") + ["--output", "out.json"], input: Self.payload(from: "Ann"),
      ignoring: ["INT", "HUP"])
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let masks = try Self.signalMasks(of: watch.processIdentifier)
    #expect(masks.ignored & Self.bit(SIGINT) != 0 && masks.ignored & Self.bit(SIGHUP) != 0, "\(masks)")
    #expect(masks.caught & Self.bit(SIGTERM) != 0)
    kill(watch.processIdentifier, SIGINT)
    kill(watch.processIdentifier, SIGHUP)
    Thread.sleep(forTimeInterval: 0.2)
    #expect(watch.isRunning)
    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.waitForOutput(containing: #""title":"Bob""#))
    #expect(watch.stop(with: SIGTERM) == 0)
  }

  /// A stop in the middle of a burst of large writes: the render under way
  /// is finished, OUT is one whole render, no temporary file is left.
  @Test func aStopDuringABurstLeavesOutWhole() throws {
    let watch = try WatchRun(
      Self.options.withFile("in.json") + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let row =
      #"{"id":1,"firstname":"Bob","message":"\#(String(repeating: "m", count: 200))","update_date":"2022-01-31T09:45:00+01:00"}"#
    let large = #"{"items":["# + Array(repeating: row, count: 5_000).joined(separator: ",") + "]}"
    for index in 0..<6 {
      try watch.replaceByRename(large.replacingOccurrences(of: "Bob", with: "Bob\(index)"))
      Thread.sleep(forTimeInterval: 0.06)
    }
    #expect(watch.stop(with: SIGTERM) == 0)
    let rows = (try? JSONSerialization.jsonObject(with: Data(watch.output().utf8))) as? [[String: Any]]
    #expect(rows?.count == 1 || rows?.count == 5_000)
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  // MARK: OUT is FILE

  struct Disguise: Sendable, CustomTestStringConvertible {
    var file = "in.json"
    var output: String
    /// Made in the watched directory before the start: "link.json -> in.json", "hard.json = in.json", "sub/".
    var prepare: [String] = []
    var says: String
    var testDescription: String { "--output \(output.debugDescription) watching \(file)" }
  }

  static let disguises: [Disguise] = [
    Disguise(output: "in.json", says: #"--output "in.json" is the watched file "in.json"; expected another file"#),
    Disguise(output: ".//in.json", says: #"--output ".//in.json" is the watched file "in.json""#),
    Disguise(
      output: "sub/../in.json", prepare: ["sub/"], says: #"--output "sub/../in.json" is the watched file "in.json""#),
    Disguise(
      output: "sub/./../sub/../in.json", prepare: ["sub/"],
      says: #"--output "sub/./../sub/../in.json" is the watched file"#),
    Disguise(
      output: "/proc/self/cwd/in.json", says: #"--output "/proc/self/cwd/in.json" is the watched file "in.json""#),
    Disguise(
      output: "link.json", prepare: ["link.json -> in.json"],
      says: #"--output "link.json" is the watched file "in.json""#),
    Disguise(
      output: "chain.json", prepare: ["link.json -> in.json", "chain.json -> link.json"],
      says: #"--output "chain.json" is the watched file"#),
    Disguise(
      output: "hard.json", prepare: ["hard.json = in.json"],
      says: #"--output "hard.json" is the watched file "in.json""#),
    Disguise(
      file: "link.json", output: "in.json", prepare: ["link.json -> in.json"],
      says: #"--output "in.json" is the watched file "link.json""#),
    Disguise(
      file: "sub/../in.json", output: "./in.json", prepare: ["sub/"],
      says: #"--output "./in.json" is the watched file "sub/../in.json""#),
    Disguise(output: "", says: "--output needs a file name; it is empty"),
    Disguise(output: "sub", prepare: ["sub/"], says: #"--output "sub" is a directory; expected a file to write"#),
    Disguise(output: "sub/", prepare: ["sub/"], says: #"--output "sub/" is a directory"#),
    Disguise(output: ".", says: #"--output "." is a directory"#),
    Disguise(output: "/", says: #"--output "/" is a directory"#),
    Disguise(output: "dirlink", prepare: ["sub/", "dirlink -> sub"], says: #"--output "dirlink" is a directory"#),
  ]

  static func prepare(_ steps: [String], in directory: URL) throws {
    for step in steps {
      if step.hasSuffix("/") {
        try FileManager.default.createDirectory(
          at: directory.appendingPathComponent(step), withIntermediateDirectories: true)
      } else if let arrow = step.range(of: " -> ") {
        try FileManager.default.createSymbolicLink(
          atPath: directory.appendingPathComponent(String(step[..<arrow.lowerBound])).path,
          withDestinationPath: String(step[arrow.upperBound...]))
      } else if let equals = step.range(of: " = ") {
        #expect(
          link(
            directory.appendingPathComponent(String(step[equals.upperBound...])).path,
            directory.appendingPathComponent(String(step[..<equals.lowerBound])).path) == 0)
      }
    }
  }

  @Test(arguments: disguises)
  func anOutThatIsTheWatchedFileIsRefusedBeforeAnythingIsWritten(_ disguise: Disguise) throws {
    let watch = try WatchRun(
      Self.options.withFile(disguise.file) + ["--output", disguise.output], input: Self.payload(from: "Ann")
    ) { try Self.prepare(disguise.prepare, in: $0) }
    #expect(watch.exitStatus() == 64)
    #expect(watch.stdout.isEmpty)
    let lines = watch.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "\(watch.stderr)")
    #expect(lines.first.map { $0.hasPrefix("inbox-format: " + disguise.says) } == true, "\(watch.stderr)")
    #expect(try String(contentsOf: watch.input, encoding: .utf8) == Self.payload(from: "Ann"))
    let made = Set(disguise.prepare.map { String($0.prefix { $0 != " " && $0 != "/" }) })
    #expect(try Set(watch.filesLeft()) == made.union(["in.json"]))
  }

  /// OUT names a directory that is not there yet, through which it leads
  /// back to FILE: checked at start, it is not FILE; once the directory is
  /// made, the retried write replaces FILE with a render.
  @Test func anOutThatBecomesTheWatchedFileLaterIsNeverWritten() throws {
    let watch = try WatchRun(
      Self.options.withFile("in.json") + ["--output", "later/../in.json"], input: Self.payload(from: "Ann"))
    #expect(watch.wait(within: 5) { watch.stderr.contains(#"cannot write "later/../in.json""#) })
    try FileManager.default.createDirectory(
      at: watch.directory.appendingPathComponent("later"), withIntermediateDirectories: false)
    // The watch writes again a second after the fault.
    _ = watch.wait(within: 2.5) { watch.stderr.contains(#"wrote "later/../in.json" again"#) }
    let file = try String(contentsOf: watch.input, encoding: .utf8)
    _ = watch.stop(with: SIGTERM)
    #expect(file == Self.payload(from: "Ann"), "stderr: \(watch.stderr)")
  }

  // MARK: FILE is a symbolic link

  @Test func aSymlinkedFileIsFollowedThroughEditsRenamesAndANewTarget() throws {
    let watch = try WatchRun(
      Self.options.withFile("link.json") + ["--output", "out.json"], input: Self.payload(from: "unused")
    ) { directory in
      let base = directory.deletingLastPathComponent()
      for (folder, name) in [("target", "Ann"), ("other", "Dee")] {
        try FileManager.default.createDirectory(
          at: base.appendingPathComponent(folder), withIntermediateDirectories: true)
        try Data(Self.payload(from: name).utf8).write(to: base.appendingPathComponent("\(folder)/real.json"))
      }
      try FileManager.default.createSymbolicLink(
        atPath: directory.appendingPathComponent("link.json").path, withDestinationPath: "../target/real.json")
    }
    let base = watch.directory.deletingLastPathComponent()
    let target = base.appendingPathComponent("target/real.json")
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))

    // The target edited in place, in its own directory.
    try Self.writeInPlace(Self.payload(from: "Bob"), to: target)
    #expect(watch.waitForOutput(containing: #""title":"Bob""#, within: 2))

    // The target replaced by a rename.
    let temporary = base.appendingPathComponent("target/.real.json.new")
    try Data(Self.payload(from: "Cid").utf8).write(to: temporary)
    #expect(rename(temporary.path, target.path) == 0)
    #expect(watch.waitForOutput(containing: #""title":"Cid""#, within: 2))

    // The link pointed elsewhere, atomically.
    let newLink = watch.directory.appendingPathComponent(".link.json.new")
    try FileManager.default.createSymbolicLink(atPath: newLink.path, withDestinationPath: "../other/real.json")
    #expect(rename(newLink.path, watch.directory.appendingPathComponent("link.json").path) == 0)
    #expect(watch.waitForOutput(containing: #""title":"Dee""#, within: 2))

    // The new target is followed, the old one no more.
    try Self.writeInPlace(Self.payload(from: "Eve"), to: base.appendingPathComponent("other/real.json"))
    #expect(watch.waitForOutput(containing: #""title":"Eve""#, within: 2))
    try Self.writeInPlace(Self.payload(from: "Old"), to: target)
    Thread.sleep(forTimeInterval: 0.3)
    #expect(try watch.output().contains(#""title":"Eve""#))

    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(watch.stderr.isEmpty, "\(watch.stderr)")
  }

  static func writeInPlace(_ text: String, to url: URL) throws {
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(text.utf8))
    try handle.close()
  }
}

extension Array where Element == String {
  /// These options after FILE.
  func withFile(_ file: String) -> [String] { [file] + self }
}
