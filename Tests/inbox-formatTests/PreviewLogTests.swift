import Foundation
import Testing

/// `inbox-format preview --log-format json`: the preview's own lines are
/// JSON objects too.
@Suite struct PreviewLogTests {
  /// Where it listens, and a file that does not decode, each one object.
  @Test func jsonLogsIncludeTheFilesProblems() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-json-log-\(getpid()).json")
    try Data("[{\"id\":1,\u{1B}[2J".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let preview = try ServerProcess(["preview", file.path, "--port", "0", "--log-format", "json"])
    #expect(try await preview.get("/healthz").head.hasPrefix("HTTP/1.1 200"))
    #expect(preview.terminate().status == 0)
    let lines = preview.standardError.split(separator: "\n")
    var messages: [String: String] = [:]
    for line in lines {
      let object = try #require(
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
      if let message = object["message"] as? String { messages[message] = object["level"] as? String }
    }
    #expect(
      messages.contains { $0.key.hasPrefix("previewing ") && $0.key.hasSuffix(" on http://127.0.0.1:\(preview.port)") })
    #expect(messages.contains { $0.key.contains("invalid JSON") && $0.value == "warning" }, "\(messages)")
  }

  /// A file that cannot be opened at start is reported as JSON, before the
  /// command exits 66.
  @Test func aFileThatCannotBeOpenedIsAJSONLine() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-missing-\(getpid()).json")
      .path
    let result = try BuiltBinary.run(["preview", missing, "--port", "0", "--log-format", "json"])
    #expect(result.status == 66)
    let object = try #require(
      try? JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any], "\(result.stderr)")
    #expect((object["message"] as? String)?.hasPrefix("cannot open ") == true, "\(result.stderr)")
  }
}
