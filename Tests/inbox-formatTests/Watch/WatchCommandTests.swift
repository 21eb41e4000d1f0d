import Foundation
import Glibc
import Testing

/// `inbox-format watch`, end to end: the built binary follows a temporary
/// file as editors and atomic writers change it, and the clock.
@Suite struct WatchCommandTests {
  static let pinned = ["in.json", "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]
  static let parisClock = ["in.json", "--locale", "en-US", "--time-zone", "Europe/Paris"]

  /// A payload with one message from `name`, sent at 09:45 Paris on 31 January 2022.
  static func payload(from name: String) -> String {
    #"{"items":[{"id":1,"firstname":"\#(name)","message":"hi","update_date":"2022-01-31T09:45:00+01:00","unread_count":1}]}"#
  }

  @Test func followsWritesInPlaceRenamesAndRecreation() throws {
    let watch = try WatchRun(Self.pinned + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))

    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.waitForOutput(containing: #""title":"Bob""#, within: 1))

    try watch.replaceByRename(Self.payload(from: "Cid"))
    #expect(watch.waitForOutput(containing: #""title":"Cid""#, within: 1))

    try FileManager.default.removeItem(at: watch.input)
    try watch.writeInPlace(Self.payload(from: "Dee"))
    #expect(watch.waitForOutput(containing: #""title":"Dee""#, within: 1))

    #expect(watch.stop(with: SIGINT) == 0)
    #expect(watch.stderr.isEmpty)
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  @Test func aBadWriteKeepsTheOutputAndTheNextGoodOneIsShown() throws {
    let watch = try WatchRun(Self.pinned + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let good = try watch.output()

    // Torn: an editor's write seen halfway.
    try watch.writeInPlace(String(Self.payload(from: "Bob").prefix(30)))
    #expect(watch.wait(within: 5) { watch.stderr.contains("\n") })
    try watch.replaceByRename("not json")
    #expect(watch.wait(within: 5) { watch.stderr.split(separator: "\n").count == 2 })
    #expect(try watch.output() == good)
    #expect(watch.isRunning)
    let lines = watch.stderr.split(separator: "\n")
    #expect(lines.allSatisfy { $0.hasPrefix(#"inbox-format: "in.json": line 1, column "#) })

    try watch.writeInPlace(Self.payload(from: "Cid"))
    #expect(watch.waitForOutput(containing: #""title":"Cid""#, within: 1))
    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  @Test func midnightTurnsTheTimeIntoYesterdayWithoutAChange() throws {
    let watch = try WatchRun(
      Self.parisClock + ["--clock-start", "2022-01-31T23:59:57+01:00", "--output", "out.json"],
      input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""date":"9:45\#u{202F}AM""#))
    let shown = ContinuousClock.now
    #expect(watch.waitForOutput(containing: #""date":"Yesterday""#, within: 10))
    // Midnight came three seconds after the clock started, and no render came
    // before it. Without the timer none would come at all; the upper bound
    // leaves room for a test run that loads both cores.
    let elapsed = ContinuousClock.now - shown
    #expect(elapsed > .milliseconds(2_500) && elapsed < .seconds(10), "after \(elapsed)")
    #expect(watch.stop(with: SIGINT) == 0)
  }

  @Test func relativeLabelsAreRenderedAgainWhenTheirMinuteChanges() throws {
    // A message of 11:54:50 UTC is "5 min. ago" until 12:00:50: two seconds after the clock starts.
    let watch = try WatchRun(
      Self.parisClock + ["--date-style", "relative", "--clock-start", "2022-01-31T12:00:48Z", "--output", "out.json"],
      input: #"{"items":[{"id":1,"firstname":"Ann","update_date":"2022-01-31T11:54:50Z"}]}"#)
    #expect(watch.waitForOutput(containing: #""date":"5 min. ago""#))
    let shown = ContinuousClock.now
    #expect(watch.waitForOutput(containing: #""date":"6 min. ago""#, within: 10))
    let elapsed = ContinuousClock.now - shown
    #expect(elapsed > .milliseconds(1_500) && elapsed < .seconds(10), "after \(elapsed)")
    #expect(watch.stop(with: SIGINT) == 0)
  }

  @Test func idleItUsesAlmostNoProcessorTime() throws {
    // A running clock far from midnight: the timer is armed, and nothing else happens.
    let watch = try WatchRun(
      Self.parisClock + ["--clock-start", "2022-01-31T12:00:00Z", "--output", "out.json"],
      input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: "Ann"))
    let before = try watch.processorTime()
    Thread.sleep(forTimeInterval: 5)
    let used = try watch.processorTime() - before
    #expect(used < .milliseconds(50), "used \(used) in 5 s idle")
    #expect(watch.stop(with: SIGTERM) == 0)
  }

  @Test func aBurstOfWritesGivesOneRenderOrAFew() throws {
    let watch = try WatchRun(Self.pinned, input: Self.payload(from: "Name0"))
    #expect(watch.wait(within: 5) { watch.stdout.contains("Name0") })
    for index in 1...20 { try watch.writeInPlace(Self.payload(from: "Name\(index)")) }
    #expect(watch.wait(within: 5) { watch.stdout.contains("Name20") })
    #expect(watch.stop(with: SIGINT) == 0)
    let renders = watch.stdout.split(separator: "\n")
    // 20 writes within a few milliseconds coalesce; a slow machine may split them once or twice.
    #expect(renders.count >= 2 && renders.count <= 4, "\(renders.count) renders")
    #expect(renders.allSatisfy { $0.hasPrefix("[{") && $0.hasSuffix("}]") })
  }

  @Test func theInboxViewIsWrittenAgainForEachRender() throws {
    let watch = try WatchRun(Self.pinned + ["--format", "text"], input: Self.payload(from: "Ann"))
    #expect(watch.wait(within: 5) { watch.stdout.contains("Ann") })
    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.wait(within: 5) { watch.stdout.contains("Bob") })
    #expect(watch.stop(with: SIGINT) == 0)
    // Not a terminal: no escape sequences, one view after another.
    #expect(!watch.stdout.contains("\u{1B}"))
    #expect(watch.stdout.hasPrefix("●  A   Ann"))
    #expect(watch.stdout.contains("9:45\u{202F}AM\n       hi\n\n●  B   Bob"))
  }

  @Test(arguments: [
    (["-"], 64, "standard input"),
    (["in.json", "--now", "@0", "--clock-start", "@0"], 64, "--clock-start"),
    (["in.json", "--clock-start", "midnight"], 64, "--clock-start"),
    (["in.json", "--output", "./in.json"], 64, "--output"),
    (["missing.json"], 66, "missing.json"),
    (["no-such-directory/in.json"], 66, "no-such-directory"),
  ])
  func refusesWhatItCannotWatch(arguments: [String], status: Int32, mention: String) throws {
    let watch = try WatchRun(arguments, input: Self.payload(from: "Ann"))
    #expect(watch.exitStatus() == status)
    #expect(watch.stderr.contains(mention))
    // Usage errors are followed by the usage; the others are one line.
    #expect(status == 64 || watch.stderr.split(separator: "\n").count == 1)
  }
}

/// A `watch` process of the built binary, in a temporary directory that
/// holds only `in.json` and whatever the process writes; its standard
/// output and error go to files beside that directory.
final class WatchRun {
  let directory: URL
  let input: URL
  private let streams: URL
  private let process = Process()

  /// Starts `inbox-format watch` with `arguments`, in a directory where
  /// `in.json` holds `payload` and `prepare` has made whatever else is needed;
  /// or, `fromParent`, in the directory above it, where FILE is `watched/in.json`.
  /// `ignoring` names signals (`INT`, `HUP`) the process starts with ignored,
  /// as `nohup` or a script's background job leaves them: a shell ignores
  /// them, then executes the watch in its place (same process).
  init(
    _ arguments: [String], input payload: String, fromParent: Bool = false, ignoring signals: [String] = [],
    prepare: (URL) throws -> Void = { _ in }
  ) throws {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-watch-\(UUID().uuidString)")
    directory = base.appendingPathComponent("watched")
    streams = base.appendingPathComponent("streams")
    input = directory.appendingPathComponent("in.json")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: streams, withIntermediateDirectories: true)
    try Data(payload.utf8).write(to: input)
    try Data().write(to: streams.appendingPathComponent("stdout"))
    try Data().write(to: streams.appendingPathComponent("stderr"))
    try prepare(directory)

    if signals.isEmpty {
      process.executableURL = BuiltBinary.url
      process.arguments = ["watch"] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      let script = "trap '' \(signals.joined(separator: " ")); exec \"$0\" \"$@\""
      process.arguments = ["-c", script, BuiltBinary.url.path, "watch"] + arguments
    }
    process.currentDirectoryURL = fromParent ? base : directory
    process.environment = ["PATH": "/usr/bin:/bin"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: streams.appendingPathComponent("stdout"))
    process.standardError = try FileHandle(forWritingTo: streams.appendingPathComponent("stderr"))
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
  }

  var isRunning: Bool { process.isRunning }
  var processIdentifier: Int32 { process.processIdentifier }
  var stdout: String { (try? String(contentsOf: streams.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
  var stderr: String { (try? String(contentsOf: streams.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

  func output() throws -> String {
    try String(contentsOf: directory.appendingPathComponent("out.json"), encoding: .utf8)
  }

  /// Rewrites `in.json` in place: the same file, truncated and written.
  func writeInPlace(_ text: String) throws {
    let descriptor = open(input.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(descriptor >= 0)
    _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }

  /// Replaces `in.json` as `mv` and atomic writers do: a new file renamed over it.
  func replaceByRename(_ text: String) throws {
    let temporary = directory.appendingPathComponent(".in.json.new")
    try Data(text.utf8).write(to: temporary)
    #expect(rename(temporary.path, input.path) == 0)
  }

  /// Waits, checking every 5 ms, until `condition` holds or `seconds` pass.
  func wait(within seconds: Double, until condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
      if condition() { return true }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return condition()
  }

  func waitForOutput(containing text: String, within seconds: Double = 5) -> Bool {
    wait(within: seconds) { (try? output())?.contains(text) ?? false }
  }

  /// Sends `signal`, then returns the exit status as `exitStatus()` does.
  func stop(with signal: Int32) -> Int32? {
    if process.isRunning { kill(process.processIdentifier, signal) }
    return exitStatus()
  }

  /// The exit status (128 + the signal's number if a signal ended it), or
  /// nil if the process is still running after 5 s.
  func exitStatus() -> Int32? {
    guard wait(within: 5, until: { !process.isRunning }) else { return nil }
    process.waitUntilExit()
    return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
  }

  /// What is in the watched directory, sorted.
  func filesLeft() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
  }

  /// The processor time the process used so far (user and system), from /proc.
  func processorTime() throws -> Duration {
    let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
    // Fields after the command name, which is in parentheses: state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
    let ticks = try #require(Int(fields[11])) + (try #require(Int(fields[12])))
    return .milliseconds(ticks * 1000 / sysconf(Int32(_SC_CLK_TCK)))
  }
}
