import Foundation
import Glibc
import Testing

/// File names as the kernel has them: bytes, maybe not UTF-8, maybe holding
/// controls, bidi overrides or format characters, maybe long. They open,
/// and messages quote them on one visible line, exactly.
@Suite struct FileNameTests {
  static let pinned = ["--now", Hostile.now, "--locale", "en-US", "--time-zone", "Europe/Paris"].map { Array($0.utf8) }

  /// A fresh directory, removed when the value goes.
  final class Directory {
    let path: String

    init() throws {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-names-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` to the file whose name is `name`'s bytes, in this directory.
    func write(_ contents: [UInt8], to name: [UInt8]) {
      let full = Array(path.utf8) + [UInt8(ascii: "/")] + name
      let descriptor = (full.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
        Glibc.open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      }
      #expect(descriptor >= 0, "cannot create \(name)")
      _ = contents.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }

    /// The bytes of the file whose name is `name`'s bytes, or nil.
    func read(_ name: [UInt8]) -> [UInt8]? {
      let full = Array(path.utf8) + [UInt8(ascii: "/")] + name
      let descriptor = (full.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer {
        Glibc.open($0.baseAddress!, O_RDONLY)
      }
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { return bytes }
        bytes += buffer[..<count]
      }
    }

    /// How many entries the directory holds.
    var entryCount: Int {
      guard let stream = opendir(path) else { return -1 }
      defer { closedir(stream) }
      var count = 0
      while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { count += 1 }
      }
      return count
    }
  }

  static let example = Array(try! Data(contentsOf: URL(fileURLWithPath: Hostile.example)))

  /// Hostile names, the bytes given as an argument (relative to the run's
  /// directory) and exactly how a message quotes them.
  static let names: [(bytes: [UInt8], quoted: String)] = [
    (
      Array("miss\u{1B}[31m\u{202E}".utf8) + [0xFF, 0xFE] + Array(".json".utf8),
      #""miss\u{1B}[31m\u{202E}\x{FF}\x{FE}.json""#
    ),
    (Array("bad".utf8) + [0x85] + Array("\u{2028}\u{AD}.json".utf8), #""bad\x{85}\u{2028}\u{AD}.json""#),
    (Array("c1\u{85}\u{9B}2J\u{7F}.json".utf8), #""c1\u{85}\u{9B}2J\u{7F}.json""#),
    (
      Array("zw\u{200B}\u{200D}\u{2066}\u{FEFF}\u{E0041}.json".utf8),
      #""zw\u{200B}\u{200D}\u{2066}\u{FEFF}\u{E0041}.json""#
    ),
    (Array("nl\n\r\t.json".utf8), #""nl\u{A}\u{D}\u{9}.json""#),
    (Array("quote\"back\\slash.json".utf8), #""quote\"back\\slash.json""#),
    (Array("latin1-".utf8) + [0xE9, 0xE8] + Array(".json".utf8), #""latin1-\x{E9}\x{E8}.json""#),
    ([0xC3] + Array("x.json".utf8), #""\x{C3}x.json""#),
    ([0xED, 0xA0, 0x80] + Array(".json".utf8), #""\x{ED}\x{A0}\x{80}.json""#),
    (Array("日本語 émoji 😀.json".utf8), #""日本語 émoji 😀.json""#),
    (
      Array((String(repeating: "a", count: 100) + "b.json").utf8),
      "\"" + String(repeating: "a", count: 29) + "…" + String(repeating: "a", count: 24) + "b.json\""
    ),
    (
      Array(String(repeating: "\u{1B}", count: 70).utf8),
      "\"" + String(repeating: #"\u{1B}"#, count: 29) + "…" + String(repeating: #"\u{1B}"#, count: 30) + "\""
    ),
    (
      Array(repeating: 0xFF, count: 100),
      "\"" + String(repeating: #"\x{FF}"#, count: 29) + "…" + String(repeating: #"\x{FF}"#, count: 30) + "\""
    ),
  ]

  /// A name that is not there: 66, and the one line names it exactly.
  @Test func aMissingFileIsNamedExactly() throws {
    let directory = try Directory()
    for (bytes, quoted) in Self.names {
      let result = try RawProcess.run(Self.pinned + [bytes], directory: directory.path)
      expectNoSignal(result, quoted)
      #expect(result.exitStatus == 66, "\(quoted): \(result)")
      #expect(result.stdout.isEmpty)
      let line = expectOneMessageLine(result, quoted)
      #expect(line == "inbox-format: cannot open \(quoted): No such file or directory")
    }
  }

  /// A file that is there but not a payload: 65, and the line starts with its name, exactly.
  @Test func aBadPayloadIsNamedExactly() throws {
    let directory = try Directory()
    for (bytes, quoted) in Self.names where bytes.count < 250 {
      directory.write(Array("x".utf8), to: bytes)
      let result = try RawProcess.run(Self.pinned + [bytes], directory: directory.path)
      expectNoSignal(result, quoted)
      #expect(result.exitStatus == 65, "\(quoted): \(result)")
      let line = expectOneMessageLine(result, quoted)
      #expect(
        line
          == #"inbox-format: \#(quoted): line 1, column 1: invalid JSON: unexpected character "x"; expected a JSON object or array"#
      )
    }
  }

  /// Names that are not UTF-8 open: the bytes reach the kernel as given,
  /// through `format`, `--skip-invalid` and `watch`.
  @Test func namesThatAreNotUTF8Open() throws {
    let directory = try Directory()
    let clean = try RawProcess.run(Self.pinned + [Array(Hostile.example.utf8)])
    for (bytes, quoted) in Self.names where bytes.count < 250 {
      directory.write(Self.example, to: bytes)
      let result = try RawProcess.run(Self.pinned + [bytes], directory: directory.path)
      expectRows(result, quoted)
      #expect(result.stdout == clean.stdout, "\(quoted)")
    }
    // In a directory whose name is not UTF-8 either, with --skip-invalid reporting by name.
    let parent: [UInt8] = Array("dir".utf8) + [0xFF, 0x1B]
    let parentPath = (Array(directory.path.utf8) + [UInt8(ascii: "/")] + parent).map { CChar(bitPattern: $0) } + [0]
    #expect(mkdir(parentPath, 0o755) == 0)
    directory.write(
      Array(#"[{"id":1,"update_date":"2022-01-31T08:45:33Z"},{"id":2}]"#.utf8), to: parent + Array("/in.json".utf8))
    let skipped = try RawProcess.run(
      Self.pinned + [Array("--skip-invalid".utf8), parent + Array("/in.json".utf8)], directory: directory.path)
    expectNoSignal(skipped)
    #expect(skipped.exitStatus == 3, "\(skipped)")
    #expect(skipped.stderrLines.count == 2)
    #expect(
      skipped.stderrLines.allSatisfy { $0.hasPrefix(#"inbox-format: "dir\x{FF}\u{1B}/in.json": skipped"#) },
      "\(skipped.stderrLines)")
  }

  /// `watch` of a file whose name is not UTF-8, writing an OUT whose name is not either.
  @Test func watchFollowsANameThatIsNotUTF8() throws {
    let directory = try Directory()
    let name: [UInt8] = Array("in".utf8) + [0xE9] + Array(".json".utf8)
    let output: [UInt8] = Array("out".utf8) + [0xFF] + Array(".json".utf8)
    directory.write(Array(WatchCommandTests.payload(from: "Ann").utf8), to: name)
    let result = try RawProcess.run(
      [Array("watch".utf8), name, Array("--output".utf8), output] + Self.pinned, directory: directory.path,
      timeout: .milliseconds(1_500))
    // The deadline ends it (SIGKILL): it was watching, not failing.
    #expect(result.timedOut, "\(result)")
    #expect(result.stderr.isEmpty, "\(result.stderrText)")
    let written = String(decoding: directory.read(output) ?? [], as: UTF8.self)
    #expect(written.contains(#""title":"Ann""#), "\(written)")
    #expect(directory.entryCount == 2)
  }

  /// The arguments hold bytes that are not UTF-8 as stand-in scalars
  /// (U+10FF80 to U+10FFFF); a name that holds those scalars themselves, as
  /// valid UTF-8, must still be its own name.
  @Test func aNameWithTheStandInScalarsIsItsOwn() throws {
    let directory = try Directory()
    let standIn: [UInt8] = Array("\u{10FFFF}.json".utf8)
    directory.write(Array(WatchCommandTests.payload(from: "Ann").utf8), to: standIn)
    let result = try RawProcess.run(
      [Array("watch".utf8), standIn, Array("--output".utf8), [0xFF] + Array(".json".utf8)] + Self.pinned,
      directory: directory.path, timeout: .milliseconds(1_500))
    #expect(result.timedOut, "\(result)")
    #expect(result.stderr.isEmpty, "\(result.stderrText)")
  }
}
