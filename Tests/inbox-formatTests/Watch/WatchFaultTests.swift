import Foundation
import Glibc
import Testing

/// `watch` when things go wrong around it: the file disappears or cannot be
/// read, or OUT cannot be written. Each fault is one line on standard
/// error, the last good OUT stays whole, the process lives on, and the next
/// good state is shown once the fault clears. (The tests run as root, which
/// no file mode stops: faults are made of what stops root too.)
@Suite struct WatchFaultTests {
  static let pinned = WatchCommandTests.pinned
  static func payload(from name: String) -> String { WatchCommandTests.payload(from: name) }

  @Test func aRemovedFileIsReportedAndFollowedWhenItComesBack() throws {
    let watch = try WatchRun(Self.pinned + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let good = try watch.output()

    try FileManager.default.removeItem(at: watch.input)
    #expect(watch.wait(within: 5) { watch.stderr.contains("\n") })
    #expect(watch.stderr == #"inbox-format: cannot open "in.json": No such file or directory"# + "\n")
    #expect(try watch.output() == good)
    #expect(watch.isRunning)

    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.waitForOutput(containing: #""title":"Bob""#))
    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  /// Unlike a removed file, a removed directory cannot come back as the one
  /// watched: the watch ends with 74 and one line saying so. (Run from the
  /// directory above: a working directory inside would keep the removed
  /// directory alive, and the kernel reports nothing until it goes.)
  @Test func aRemovedDirectoryEndsTheWatchWithStatus74() throws {
    let watch = try WatchRun(
      ["watched/in.json"] + Self.pinned.dropFirst(), input: Self.payload(from: "Ann"), fromParent: true)
    #expect(watch.wait(within: 5) { watch.stdout.contains(#""title":"Ann""#) })

    try FileManager.default.removeItem(at: watch.directory)
    #expect(watch.exitStatus() == 74)
    // The file's removal may be read, and reported, before the directory's.
    let lines = watch.stderr.split(separator: "\n")
    #expect(lines.last == #"inbox-format: stopped watching "watched": it was removed or unmounted"#, "\(lines)")
    #expect(lines.dropLast().allSatisfy { $0.hasPrefix(#"inbox-format: cannot open "watched/in.json": "#) }, "\(lines)")
    #expect(lines.count <= 2, "\(lines)")
  }

  @Test func aDirectoryOrAFIFOInItsPlaceIsReportedAndDoesNotBlock() throws {
    let watch = try WatchRun(Self.pinned + ["--output", "out.json"], input: Self.payload(from: "Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let good = try watch.output()

    // A directory where the file was.
    try FileManager.default.removeItem(at: watch.input)
    try FileManager.default.createDirectory(at: watch.input, withIntermediateDirectories: false)
    #expect(watch.wait(within: 5) { watch.stderr.contains("it is a directory") })
    // A FIFO: opening it to read would wait for a writer forever.
    try FileManager.default.removeItem(at: watch.input)
    #expect(mkfifo(watch.input.path, 0o644) == 0)
    #expect(watch.wait(within: 5) { watch.stderr.contains("it is not a regular file") })
    #expect(try watch.output() == good)
    #expect(watch.isRunning)

    try FileManager.default.removeItem(at: watch.input)
    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.waitForOutput(containing: #""title":"Bob""#))
    #expect(watch.stop(with: SIGINT) == 0)
    // Each fault was one line: removals and creations settle into one reading.
    let lines = watch.stderr.split(separator: "\n")
    #expect(lines.allSatisfy { $0.hasPrefix(#"inbox-format: cannot open "in.json": "#) }, "\(lines)")
    #expect(lines.count >= 2 && lines.count <= 4, "\(lines)")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit")))
  func anOutputThatCannotBeWrittenIsKeptAndWrittenOnceItCanBe() throws {
    // A file size limit makes the next write fail as a full disk would.
    // Renders of a long message are larger than the limit; the lines on
    // standard error (a file too) are not.
    let long = String(repeating: "lorem ipsum ", count: 10_000)
    func payload(_ name: String) -> String {
      #"[{"id":1,"firstname":"\#(name)","message":"\#(long)","update_date":"2022-01-31T09:45:00+01:00"}]"#
    }
    let watch = try WatchRun(Self.pinned + ["--output", "out.json"], input: payload("Ann"))
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    let good = try watch.output()

    try setFileSizeLimit(of: watch, to: "50000")
    // Whole at once: a write in place may be read half-written on a loaded
    // machine, and say so on standard error, which this test counts.
    try watch.replaceByRename(payload("Bob"))
    #expect(watch.wait(within: 5) { watch.stderr.contains("\n") })
    #expect(
      watch.stderr == #"inbox-format: cannot write "out.json": File too large; the last output stays, trying again"#
        + "\n")
    #expect(try watch.output() == good)
    #expect(watch.isRunning)
    // Tried again a second later, then two seconds after that: still one line.
    Thread.sleep(forTimeInterval: 1.5)
    #expect(watch.stderr.split(separator: "\n").count == 1)

    try setFileSizeLimit(of: watch, to: "unlimited")
    #expect(watch.waitForOutput(containing: #""title":"Bob""#, within: 5))
    // The line follows the write: on a loaded machine it may come a moment later.
    #expect(watch.wait(within: 5) { watch.stderr.hasSuffix(#"inbox-format: wrote "out.json" again"# + "\n") })
    #expect(watch.stderr.split(separator: "\n").count == 2)
    #expect(watch.stop(with: SIGTERM) == 0)
    #expect(try watch.filesLeft() == ["in.json", "out.json"])
  }

  @Test func anOutputDirectoryReplacedByAFileIsReportedAndRecovered() throws {
    let watch = try WatchRun(Self.pinned + ["--output", "site/out.json"], input: Self.payload(from: "Ann")) {
      try FileManager.default.createDirectory(at: $0.appendingPathComponent("site"), withIntermediateDirectories: false)
    }
    let site = watch.directory.appendingPathComponent("site")
    #expect(
      watch.wait(within: 5) {
        (try? String(contentsOf: site.appendingPathComponent("out.json"), encoding: .utf8))?.contains("Ann") ?? false
      })

    // The directory goes aside, a file takes its name.
    let aside = watch.directory.appendingPathComponent("site.aside")
    try FileManager.default.moveItem(at: site, to: aside)
    try Data("not a directory".utf8).write(to: site)
    try watch.writeInPlace(Self.payload(from: "Bob"))
    #expect(watch.wait(within: 5) { watch.stderr.contains("Not a directory") })
    #expect(watch.isRunning)
    #expect(try String(contentsOf: aside.appendingPathComponent("out.json"), encoding: .utf8).contains("Ann"))

    try FileManager.default.removeItem(at: site)
    try FileManager.default.moveItem(at: aside, to: site)
    #expect(
      watch.wait(within: 8) {
        (try? String(contentsOf: site.appendingPathComponent("out.json"), encoding: .utf8))?.contains("Bob") ?? false
      })
    #expect(watch.stop(with: SIGINT) == 0)
    let lines = watch.stderr.split(separator: "\n")
    #expect(lines.first?.hasPrefix(#"inbox-format: cannot write "site/out.json": Not a directory"#) == true, "\(lines)")
    #expect(lines.last == #"inbox-format: wrote "site/out.json" again"#)
  }

  @Test func skipInvalidShowsTheValidMessagesOfEachVersion() throws {
    let mixed =
      #"[{"id":1,"firstname":"Ann","update_date":"2022-01-31T09:45:00+01:00"},{"id":2,"update_date":"2022-02-30T00:00:00Z"}]"#
    let watch = try WatchRun(Self.pinned + ["--output", "out.json", "--skip-invalid"], input: mixed)
    #expect(watch.waitForOutput(containing: #""title":"Ann""#))
    #expect(watch.wait(within: 5) { watch.stderr.split(separator: "\n").count == 2 })
    #expect(
      watch.stderr == """
        inbox-format: "in.json": skipped: line 1, column 93: [1].update_date (id 2): invalid date "2022-02-30T00:00:00Z": \
        day 30 does not exist in February 2022; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z"
        inbox-format: "in.json": skipped 1 invalid message

        """)
    #expect(try !watch.output().contains(#""id":2"#))
    #expect(watch.stop(with: SIGINT) == 0)
  }

  /// Changes the running watch's RLIMIT_FSIZE with prlimit(1).
  private func setFileSizeLimit(of watch: WatchRun, to limit: String) throws {
    let prlimit = Process()
    prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    prlimit.arguments = ["--pid", "\(watch.processIdentifier)", "--fsize=\(limit):unlimited"]
    try prlimit.run()
    prlimit.waitUntilExit()
    #expect(prlimit.terminationStatus == 0)
  }
}
