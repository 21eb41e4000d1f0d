import Foundation
import NIOCore
import Testing

@testable import InboxFormatServer

/// `GET /readyz` and the drain before a stop: SIGTERM (here the group's own
/// trigger) turns `/readyz` to 503 at once, every request is answered for
/// the drain delay, and only then does the server stop accepting.
@Suite struct DrainTests {
  @Test func readyzTurns503WhileEverythingIsAnsweredForTheDelay() async throws {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let configuration = testConfiguration {
      // Long enough that the requests below come within it on a loaded machine.
      $0.drainDelay = .seconds(10)
      $0.onListening = { _, port in listening.yield(port) }
    }
    let group = serviceGroup(configuration, logger: quietLogger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      let ready = await get("/readyz", port: port)
      #expect(ready.hasPrefix("HTTP/1.1 200"), "\(ready)")
      #expect(ready.hasSuffix("{\"status\":\"ready\"}\n"))
      // A connection kept alive from before the stop.
      let kept = try RawConnection(port: port)
      await kept.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await kept.read(until: "\"ok\"}\n").hasPrefix("HTTP/1.1 200"))

      let stop = ContinuousClock.now
      await group.triggerGracefulShutdown()
      try await Task.sleep(for: .milliseconds(100))
      let draining = await get("/readyz", port: port)
      #expect(draining.hasPrefix("HTTP/1.1 503"), "\(draining)")
      #expect(draining.contains("application/problem+json"))
      #expect(draining.contains(#""detail":"the server is stopping and takes no new work; it still answers for now""#))
      // Liveness, new connections, work and the kept connection: all answered.
      #expect(await get("/healthz", port: port).hasPrefix("HTTP/1.1 200"))
      let rows = await request(
        "POST /v1/rows?now=2022-01-31T12:00:00Z HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]",
        port: port)
      #expect(rows.hasPrefix("HTTP/1.1 200") && rows.hasSuffix("[]\n"), "\(rows)")
      await kept.send("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await kept.read(until: "\"}\n").hasPrefix("HTTP/1.1 503"))

      try await tasks.next()
      let stopped = ContinuousClock.now - stop
      #expect(stopped >= .seconds(10) && stopped < .seconds(25), "after \(stopped)")
      #expect(throws: (any Error).self) { try RawConnection(port: port) }
    }
  }

  @Test func withoutADelayTheServerStopsAtOnce() async throws {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let configuration = testConfiguration { $0.onListening = { _, port in listening.yield(port) } }
    let group = serviceGroup(configuration, logger: quietLogger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      #expect(await get("/readyz", port: port).hasPrefix("HTTP/1.1 200"))
      let stop = ContinuousClock.now
      await group.triggerGracefulShutdown()
      try await tasks.next()
      // Well short of the drain above, however loaded the machine.
      #expect(ContinuousClock.now - stop < .seconds(5))
    }
  }

  /// A request whose body is still coming when the grace period after the
  /// drain ends gets 503, not a connection closed in silence.
  @Test func aBodyCutOffByShutdownIs503() async throws {
    let (ports, listening) = AsyncStream<Int>.makeStream()
    let configuration = testConfiguration {
      $0.shutdownGracePeriod = .seconds(1)
      $0.bodyTimeout = .seconds(60)
      $0.idleTimeout = .seconds(60)
      $0.onListening = { _, port in listening.yield(port) }
    }
    let log = LogLines()
    let group = serviceGroup(configuration, logger: log.logger)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      let connection = try RawConnection(port: port, timeout: 15)
      await connection.send("POST /v1/rows HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n[")
      try await Task.sleep(for: .milliseconds(200))
      await group.triggerGracefulShutdown()
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
      #expect(answer.contains(#""detail":"the server is shutting down""#))
      #expect(answer.contains("X-Request-Id: "))
      try await tasks.next()
      #expect(log.all.contains { $0.hasPrefix(#"info POST "/v1/rows" 503 "#) }, "\(log.all)")
    }
  }

  @Test func headOfReadyz() async throws {
    try await withServer(.live) { client in
      let response = try await client.execute(uri: "/readyz", method: .head)
      #expect(response.status == .ok)
    }
  }

  private func get(_ path: String, port: Int) async -> String {
    await request("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
  }

  private func request(_ text: String, port: Int) async -> String {
    guard let connection = try? RawConnection(port: port, timeout: 10) else { return "not connected" }
    await connection.send(text)
    return await connection.readToEnd()
  }
}
