import Foundation
import Testing

/// Input that cannot be a payload fails where it starts: on an endless pipe
/// (written from here until the command closes it, EPIPE), on a device
/// that never ends, and on a file; in bounded time and memory.
@Suite struct EndlessInputTests {
  static let pinned = ["--now", Hostile.now, "--locale", "en-US", "--time-zone", "Europe/Paris"]
  static let valid = #"{"id":1,"update_date":"2022-01-31T08:45:33Z"}"#

  /// The most an endless feed writes before giving up: far more than the
  /// command may read if it stops where the input fails.
  static let feedLimit = 256 << 20
  /// Peak memory allowed, in kilobytes: the debug binary alone peaks at about 33 MB.
  static let memoryLimitKB = 64_000

  /// Feeds `prefix` then `unit` forever (up to ``feedLimit``) to standard input.
  static func endless(
    _ prefix: String, _ unit: [UInt8], arguments: [String] = [], limit: Int = feedLimit,
    timeout: Duration = .seconds(10)
  ) throws -> RawProcess.Result {
    try RawProcess.run(
      pinned + arguments, stdin: .pipe, feed: .endless(Array(prefix.utf8), repeating: unit, limit: limit),
      timeout: timeout)
  }

  /// Refused with 65 at `location`, saying `says`, quickly, having read a
  /// bounded part of the feed, and with the pipe closed on the feeder.
  static func expectStoppedEarly(
    _ result: RawProcess.Result, at location: String, saying says: String, input: String = "<stdin>", fed: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    expectNoSignal(result, sourceLocation: sourceLocation)
    #expect(result.exitStatus == 65, "\(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    let line = expectOneMessageLine(result, sourceLocation: sourceLocation)
    #expect(line.hasPrefix("inbox-format: \(input): \(location): "), "\(line)", sourceLocation: sourceLocation)
    #expect(line.contains(says), "\(line)", sourceLocation: sourceLocation)
    #expect(result.elapsed < .seconds(5), "took \(result.elapsed)", sourceLocation: sourceLocation)
    #expect(result.peakMemoryKB < memoryLimitKB, "peak \(result.peakMemoryKB) KB", sourceLocation: sourceLocation)
    if fed {
      #expect(result.feedMetEPIPE, "read all \(result.bytesFed) bytes fed", sourceLocation: sourceLocation)
      #expect(result.bytesFed < 64 << 20, "\(result.bytesFed) bytes fed", sourceLocation: sourceLocation)
    }
  }

  @Test func yesXIsRefusedAtItsFirstByte() throws {
    let result = try Self.endless("", Array("x\n".utf8))
    Self.expectStoppedEarly(
      result, at: "line 1, column 1", saying: #"unexpected character "x"; expected a JSON object or array"#)
  }

  @Test func devZeroIsRefusedAtItsFirstByte() throws {
    let asFile = try RawProcess.run(Self.pinned + ["/dev/zero"], timeout: .seconds(10))
    Self.expectStoppedEarly(
      asFile, at: "line 1, column 1", saying: #"unexpected character "\u{0}""#, input: #""/dev/zero""#, fed: false)
    let asStandardInput = try RawProcess.run(Self.pinned, stdin: .path("/dev/zero"), timeout: .seconds(10))
    Self.expectStoppedEarly(
      asStandardInput, at: "line 1, column 1", saying: #"unexpected character "\u{0}""#, fed: false)
    // Whitespace, or a byte order mark, first changes nothing.
    let afterSpace = try Self.endless(" \n\t", [0])
    Self.expectStoppedEarly(afterSpace, at: "line 2, column 2", saying: #"unexpected character "\u{0}""#)
  }

  @Test func aValidLineThenEndlessNULs() throws {
    let result = try Self.endless(Self.valid + "\n", [0])
    Self.expectStoppedEarly(result, at: "line 2, column 1", saying: #"[1]: invalid JSON: unexpected character "\u{0}""#)
    // A NUL inside the second line, after its start.
    let inside = try Self.endless(Self.valid + "\n" + #"{"id":2,"x":""#, [0])
    Self.expectStoppedEarly(
      inside, at: "line 2, column 14", saying: "[1]: invalid JSON: unescaped control character U+0000")
  }

  /// A NUL ends the reading wherever it comes: in a document that is
  /// gathered whole, and in a first line not yet known to be NDJSON.
  @Test func aNULEndsADocumentAndAnUndecidedFirstLine() throws {
    let array = try Self.endless("[", [0])
    Self.expectStoppedEarly(array, at: "line 1, column 2", saying: #"unexpected character "\u{0}""#)
    let payload = try Self.endless(#"{"items":[{"id":1,"#, [0])
    Self.expectStoppedEarly(payload, at: "line 1, column 19", saying: #"unexpected character "\u{0}""#)
    let firstLine = try Self.endless(#"{"id":1,"update_date":""#, [0])
    Self.expectStoppedEarly(firstLine, at: "line 1, column 24", saying: "unescaped control character U+0000")
  }

  @Test func aBrokenSecondLineThenEndlessBytesWithoutALineBreak() throws {
    let result = try Self.endless(Self.valid + "\n" + #"{"id":2, "#, Array("x".utf8))
    Self.expectStoppedEarly(
      result, at: "line 2, column 10", saying: #"[1]: invalid JSON: unexpected character "x"; expected a key"#)
    // The same from a file: read no further than needed either.
    var bytes = Array((Self.valid + "\n" + #"{"id":2, "#).utf8)
    bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 20)
    let file = try TemporaryFile(bytes, name: "broken.ndjson")
    let fromFile = try RawProcess.run(
      Self.pinned + ["broken.ndjson"], directory: URL(fileURLWithPath: file.path).deletingLastPathComponent().path,
      timeout: .seconds(10))
    Self.expectStoppedEarly(
      fromFile, at: "line 2, column 10", saying: #"[1]: invalid JSON: unexpected character "x""#,
      input: #""broken.ndjson""#, fed: false)
  }

  /// With --skip-invalid the broken line is passed over, in bounded memory,
  /// up to its line break, and the lines after it are read.
  @Test func skippingPassesOverALongBrokenLine() throws {
    var bytes = Array((Self.valid + "\n" + #"{"id":2, "#).utf8)
    // 40 MB: kept whole, it alone would pass the memory limit (it takes 4 s in a debug build).
    bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 40 << 20)
    bytes += Array(("\n" + Self.valid.replacingOccurrences(of: #""id":1"#, with: #""id":3"#) + "\n").utf8)
    let result = try RawProcess.run(
      Self.pinned + ["--skip-invalid"], stdin: .pipe, feed: .bytes(bytes), timeout: .seconds(30))
    expectNoSignal(result)
    #expect(result.exitStatus == 3, "\(result)")
    let rows = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]]
    #expect(rows?.map { $0["id"] as? Int } == [1, 3])
    #expect(
      result.stderrLines == [
        #"inbox-format: <stdin>: skipped: line 2, column 10: [1]: invalid JSON: unexpected character "x"; expected a key (a string in double quotes)"#,
        "inbox-format: <stdin>: skipped 1 invalid message",
      ])
    #expect(result.peakMemoryKB < Self.memoryLimitKB, "peak \(result.peakMemoryKB) KB for a 40 MB line")
    #expect(result.peakMemoryKB > 10_000, "the memory was sampled")
  }

  // MARK: Where it still reads on

  /// A first line that is already broken, with no line break to come. The
  /// start of the input cannot tell NDJSON from a one-object document, so
  /// it is gathered: without an end, forever, and each piece is searched
  /// again from the start for a line break (20 MB through a pipe took
  /// minutes in a debug build).
  @Test func aBrokenFirstLineThenEndlessBytes() throws {
    // 32 MB at most, 3 seconds at most: enough to tell, little to spend.
    let result = try Self.endless(#"{"id":2, "#, Array("x".utf8), limit: 32 << 20, timeout: .seconds(3))
    // Killed at the deadline, if it comes to that; never a crash.
    #expect(result.signal == nil || result.timedOut, "\(result)")
    Self.expectStoppedEarly(result, at: "line 1, column 10", saying: #"unexpected character "x""#)
  }

  /// An array whose first element cannot begin a value: a document, gathered whole first.
  @Test func anArrayOfGarbageThenEndlessBytes() throws {
    let result = try Self.endless("[", Array("x".utf8), limit: 32 << 20, timeout: .seconds(3))
    #expect(result.signal == nil || result.timedOut, "\(result)")
    Self.expectStoppedEarly(result, at: "line 1, column 2", saying: #"unexpected character "x""#)
  }
}
