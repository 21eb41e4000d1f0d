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

  init(_ arguments: [String]) throws {
    process.executableURL = BuiltBinary.url
    process.arguments = arguments
    process.environment = ["PATH": "/usr/bin:/bin"]
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
      // The whole line: a pipe may hand over the port's first digits alone.
      if let range = text.range(of: "inbox-format: serving on http://127.0.0.1:"),
        let end = text[range.upperBound...].firstIndex(of: "\n")
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
    process.waitUntilExit()
    Thread.sleep(forTimeInterval: 0.1)  // the last log lines
    errors.fileHandleForReading.readabilityHandler = nil
    return (process.terminationStatus, process.terminationReason == .uncaughtSignal)
  }

  /// POSTs `body` to `target` as curl --data-binary does; the head and body of the answer.
  func post(_ target: String, body: Data) async throws -> (head: String, body: Data) {
    let port = self.port
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
        guard connected == 0 else { return continuation.resume(throwing: POSIXError(.ECONNREFUSED)) }
        let request =
          Data(
            ("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
              + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body
        _ = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
          let count = recv(descriptor, &buffer, buffer.count, 0)
          if count <= 0 { break }
          received.append(contentsOf: buffer[..<count])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
          return continuation.resume(throwing: POSIXError(.EPROTO))
        }
        continuation.resume(
          returning: (String(decoding: received[..<split.lowerBound], as: UTF8.self), Data(received[split.upperBound...])))
      }
    }
  }
}
