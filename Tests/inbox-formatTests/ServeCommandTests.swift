import Foundation
import Glibc
import Testing

/// `inbox-format serve` as a process: it prints where it listens, answers
/// the README's curl with the command's own bytes, and exits 0 on SIGTERM.
@Suite struct ServeCommandTests {
  @Test func answersAsTheCommandWritesAndStopsOnSIGTERM() async throws {
    let server = try ServerProcess(["serve", "--port", "0", "--locale", "de-DE", "--time-zone", "UTC"])
    let payload = try Data(contentsOf: dataDirectory.appendingPathComponent("examples/messages.json"))
    let answer = try await server.post(
      "/v1/rows?locale=en-US&timeZone=Europe/Paris&now=2022-01-31T12:00:00Z", body: payload)
    let command = try BuiltBinary.run([
      "--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris",
      dataDirectory.appendingPathComponent("examples/messages.json").path,
    ])
    #expect(answer.head.hasPrefix("HTTP/1.1 200"))
    #expect(answer.body == command.stdout)
    // Without parameters, the server's defaults.
    let defaults = try await server.post("/v1/rows?now=2022-01-31T12:00:00Z", body: payload)
    #expect(defaults.head.contains("Content-Language: de-DE"))
    #expect(String(decoding: defaults.body, as: UTF8.self).contains(#""date":"Gestern""#))
    let (status, signaled) = server.terminate()
    #expect(status == 0 && !signaled)
    #expect(server.standardError.contains(#"] POST "/v1/rows" 200 "#))
    // A text line starts with its second in UTC.
    let access = try #require(server.standardError.split(separator: "\n").first { $0.contains("] POST ") })
    #expect(access.prefixMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ info \[/) != nil, "\(access)")
  }

  /// With `--log-format json`, every line on standard error is one JSON
  /// object, Hummingbird's own and the command's included, whatever the
  /// requests held.
  @Test func jsonLogsAreOneObjectPerLine() async throws {
    let server = try ServerProcess(["serve", "--port", "0", "--log-format", "json", "--log-level", "trace"])
    let hostile = "/nowhere/%1B%5B2J%22%5C%E2%80%AE\"}{"
    let missing = try await server.get(
      hostile,
      fields: "X-Request-Id: trace-me-1\r\n"
        + "traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\r\n")
    #expect(missing.head.hasPrefix("HTTP/1.1 404"))
    _ = try await server.post("/v1/rows?now=2022-01-31T12:00:00Z", body: Data("[]".utf8))
    let (status, _) = server.terminate()
    #expect(status == 0)
    let lines = server.standardError.split(separator: "\n")
    #expect(lines.count >= 3)
    var access: [[String: Any]] = []
    for line in lines {
      let object = try #require(
        try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
      #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
      let time = try #require(object["time"] as? String)
      #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
      #expect(object["level"] is String && object["message"] is String)
      if object["request_id"] != nil { access.append(object) }
    }
    #expect(lines.contains { $0.contains(#""message":"serving on http://127.0.0.1:\#(server.port)""#) })
    #expect(access.count == 2)
    let notFound = try #require(access.first { $0["status"] as? Int == 404 })
    #expect(notFound["method"] as? String == "GET")
    #expect(notFound["request_id"] as? String == "trace-me-1")
    #expect(notFound["trace_id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
    #expect(notFound["duration_ms"] is Double && notFound["bytes"] is Int)
    #expect((notFound["path"] as? String)?.hasPrefix("/nowhere/") == true)
  }

  /// SIGTERM with `--drain-delay`: `/readyz` is 503 at once, everything is
  /// still answered, and the process exits 0 once the delay is over.
  @Test func sigtermDrainsFirst() async throws {
    // A delay long enough that the requests below come within it on a
    // loaded machine: CI runs the whole suite on two cores at once.
    let server = try ServerProcess(["serve", "--port", "0", "--drain-delay", "15"])
    #expect(try await server.get("/readyz").head.hasPrefix("HTTP/1.1 200"))
    let stop = ContinuousClock.now
    // On a thread of its own, without an await between the signal and the
    // requests: with other tests blocking the test runner's threads, a
    // resumption can wait past the whole drain.
    let (readyz, healthz, rows) = try await offTheTestThreads {
      server.process.terminate()
      Thread.sleep(forTimeInterval: 0.2)
      return (
        try server.exchange(server.getHead("/readyz"), body: Data()),
        try server.exchange(server.getHead("/healthz"), body: Data()),
        try server.exchange(server.postHead("/v1/rows?now=2022-01-31T12:00:00Z", length: 2), body: Data("[]".utf8))
      )
    }
    #expect(readyz.head.hasPrefix("HTTP/1.1 503"))
    #expect(healthz.head.hasPrefix("HTTP/1.1 200"))
    #expect(rows.head.hasPrefix("HTTP/1.1 200"))
    let (status, signaled) = server.waitForExit()
    let stopped = ContinuousClock.now - stop
    #expect(status == 0 && !signaled)
    #expect(stopped >= .seconds(15) && stopped < .seconds(30), "after \(stopped)")
  }

  /// `GET /metrics` is on by default and names the version `--version`
  /// prints; `--no-metrics` makes it a 404.
  @Test func metricsAreOnUnlessTurnedOff() async throws {
    let version = try BuiltBinary.run(["--version"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!version.isEmpty)
    let server = try ServerProcess(["serve", "--port", "0"])
    let metrics = try await server.get("/metrics")
    #expect(metrics.head.hasPrefix("HTTP/1.1 200"))
    #expect(metrics.head.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"))
    let text = String(decoding: metrics.body, as: UTF8.self)
    #expect(text.contains(#"inbox_format_build_info{version="\#(version)"} 1"#), "\(text.prefix(300))")
    #expect(server.terminate().status == 0)
    let off = try ServerProcess(["serve", "--port", "0", "--no-metrics"])
    #expect(try await off.get("/metrics").head.hasPrefix("HTTP/1.1 404"))
    #expect(off.terminate().status == 0)
  }

  @Test func aBadPortIsAUsageError() throws {
    let result = try BuiltBinary.run(["serve", "--port", "70000"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--port must be from 0 to 65535"))
  }

  @Test func aBodyMemoryBelowTheBodySizeIsAUsageError() throws {
    let result = try BuiltBinary.run(["serve", "--max-body-size", "1000", "--max-body-memory", "999"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--max-body-memory must be at least --max-body-size (1000), not 999"))
  }

  @Test func aPortInUseIsReportedWith74() async throws {
    let first = try ServerProcess(["serve", "--port", "0"])
    let result = try BuiltBinary.run(["serve", "--port", String(first.port)])
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix(#"inbox-format: cannot serve on "127.0.0.1" port \#(first.port): "#))
    #expect(first.terminate().status == 0)
  }
}

/// The built binary running `serve`, its standard error gathered.
final class ServerProcess: @unchecked Sendable {
  let process = Process()
  let port: Int
  private let errors = Pipe()
  private let gathered = Gathered()

  private final class Gathered: @unchecked Sendable {
    let lock = NSLock()
    var text = ""
  }

  /// Starts `inbox-format ARGUMENTS` with only `environment` and PATH.
  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = BuiltBinary.url
    process.arguments = arguments
    process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    let gathered = self.gathered
    errors.fileHandleForReading.readabilityHandler = { handle in
      let text = String(decoding: handle.availableData, as: UTF8.self)
      gathered.lock.withLock { gathered.text += text }
    }
    try process.run()
    var port: Int?
    for _ in 0..<200 where port == nil {
      Thread.sleep(forTimeInterval: 0.05)
      let text = gathered.lock.withLock { gathered.text }
      // The whole port, up to the line's end (text) or the message's (JSON):
      // a pipe may hand over its first digits alone.
      if let range = text.range(of: " on http://127.0.0.1:"),
        let end = text[range.upperBound...].firstIndex(where: { $0 == "\n" || $0 == "\"" })
      {
        port = Int(text[range.upperBound..<end])
      }
    }
    guard let port else {
      process.terminate()
      throw POSIXError(.ETIMEDOUT)
    }
    self.port = port
  }

  var standardError: String { gathered.lock.withLock { gathered.text } }

  /// The server's resident memory, in bytes (`VmRSS`).
  var residentBytes: Int { status("VmRSS:") }

  /// The most resident memory the server has had, in bytes (`VmHWM`).
  var peakResidentBytes: Int { status("VmHWM:") }

  private func status(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field) } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
  }

  /// SIGTERM, then the exit status once it has ended.
  func terminate() -> (status: Int32, signaled: Bool) {
    process.terminate()
    return waitForExit()
  }

  /// The exit status once it has ended.
  func waitForExit() -> (status: Int32, signaled: Bool) {
    process.waitUntilExit()
    Thread.sleep(forTimeInterval: 0.1)  // the last log lines
    errors.fileHandleForReading.readabilityHandler = nil
    return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
  }

  /// POSTs `body` to `target` as curl --data-binary does; the head and body of the answer.
  func post(_ target: String, body: Data) async throws -> (head: String, body: Data) {
    let head = postHead(target, length: body.count)
    return try await offTheTestThreads { try self.exchange(head, body: body) }
  }

  /// GETs `target` with `fields` (lines of `Name: value\r\n`); the head and body of the answer.
  func get(_ target: String, fields: String = "") async throws -> (head: String, body: Data) {
    let head = getHead(target, fields: fields)
    return try await offTheTestThreads { try self.exchange(head, body: Data()) }
  }

  /// The head of a POST of `length` bytes to `target`, as curl --data-binary sends it.
  func postHead(_ target: String, length: Int) -> String {
    "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
      + "Content-Length: \(length)\r\nConnection: close\r\n\r\n"
  }

  /// The head of a GET of `target` with `fields`.
  func getHead(_ target: String, fields: String = "") -> String {
    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(fields)Connection: close\r\n\r\n"
  }

  /// Sends `head` then `body` on a connection of its own and waits (blocking
  /// the calling thread) for the head and body of the answer.
  func exchange(_ head: String, body: Data) throws -> (head: String, body: Data) {
    let descriptor = try connectedSocket(port: port)
    defer { close(descriptor) }
    let request = Data(head.utf8) + body
    _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received.append(contentsOf: buffer[..<count])
    }
    guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EPROTO) }
    return (String(decoding: received[..<split.lowerBound], as: UTF8.self), Data(received[split.upperBound...]))
  }
}

/// `work`'s result, `work` run on a Dispatch thread: blocking there holds
/// none of the threads the tests run on.
func offTheTestThreads<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
  }
}
