import Foundation
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import NIOCore
import Testing

@testable import InboxFormatServer

/// Limits, timeouts, the other endpoints, 404 and 405.
@Suite struct OperationTests {
  @Test(arguments: [TestingSetup.router, .live])
  func healthz(_ setup: TestingSetup) async throws {
    try await withServer(setup) { client in
      let response = try await client.execute(uri: "/healthz", method: .get)
      #expect(response.status == .ok)
      #expect(String(buffer: response.body) == "{\"status\":\"ok\"}\n")
      #expect(response.headers[.contentType] == "application/json")
    }
  }

  @Test func openAPIDocumentIsServedAndCommitted() async throws {
    let committed = try String(
      contentsOf: dataDirectory.deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml"), encoding: .utf8
    )
    #expect(OpenAPIDocument.yaml == committed, "run Scripts/embed-openapi.py after editing docs/openapi.yaml")
    try await withServer { client in
      let response = try await client.execute(uri: "/openapi.yaml", method: .get)
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/yaml")
      #expect(String(buffer: response.body) == committed)
    }
  }

  @Test(arguments: [TestingSetup.router, .live])
  func unknownPathsAre404(_ setup: TestingSetup) async throws {
    try await withServer(setup) { client in
      let response = try await client.execute(uri: "/v2/rows?x=%1B", method: .get)
      #expect(response.status == .notFound)
      let problem = try ProblemBody(response)
      #expect(
        problem.detail
          == #"nothing at "/v2/rows"; expected POST /v1/rows, GET /healthz, GET /readyz or GET /openapi.yaml"#)
    }
  }

  @Test(arguments: [
    ("/v1/rows", HTTPRequest.Method.get, "POST"), ("/v1/rows", .put, "POST"), ("/v1/rows", .delete, "POST"),
    ("/healthz", .post, "GET, HEAD"), ("/openapi.yaml", .delete, "GET, HEAD"),
  ])
  func otherMethodsAre405WithAllow(_ path: String, _ method: HTTPRequest.Method, _ allow: String) async throws {
    try await withServer { client in
      let response = try await client.execute(uri: path, method: method)
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers[.allow] == allow)
      _ = try ProblemBody(response)
    }
  }

  @Test func headOfHealthz() async throws {
    try await withServer(.live) { client in
      let response = try await client.execute(uri: "/healthz", method: .head)
      #expect(response.status == .ok)
    }
  }

  @Test func aDeclaredLengthPastTheLimitIs413() async throws {
    try await withServer(.router, testConfiguration { $0.maxBodySize = 100 }) { client in
      let response = try await client.rows(body: ByteBuffer(repeating: UInt8(ascii: " "), count: 101))
      #expect(response.status == .contentTooLarge)
      #expect(try ProblemBody(response).detail == "the request body is larger than 100 bytes, the most read")
    }
  }

  /// A client declaring 100 MB gets 413 after sending a little of it, and
  /// the connection closes: the rest is never read.
  @Test func a413IsAnsweredWithoutReadingTheBody() async throws {
    try await withServer(.live, testConfiguration { $0.maxBodySize = 1_000 }) { client in
      let connection = try RawConnection(port: try #require(client.port))
      await connection.send("POST /v1/rows HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n[")
      let answer = await connection.readToEnd()  // returns once the server closes the connection
      #expect(answer.hasPrefix("HTTP/1.1 413"))
      #expect(answer.contains("application/problem+json"))
      // The server stopped reading: most of 100 MB cannot be sent.
      var sent = 0
      let chunk = String(repeating: " ", count: 65_536)
      while sent < 100_000_000, await connection.send(chunk) { sent += chunk.utf8.count }
      #expect(sent < 50_000_000)
    }
  }

  /// A route that reads no body does not read a long one either: a 100 MB
  /// body on `GET /healthz` was once read whole.
  @Test func aLongBodyOnARouteThatReadsNoneIsNotRead() async throws {
    try await withServer(.live) { client in
      let connection = try RawConnection(port: try #require(client.port))
      await connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n ")
      var sent = 0
      let chunk = String(repeating: " ", count: 65_536)
      while sent < 100_000_000, await connection.send(chunk) { sent += chunk.utf8.count }
      #expect(sent < 50_000_000)
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 200"))
      #expect(answer.contains("Connection: close"))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
    }
  }

  /// A short body left unread is read and dropped after the answer, within
  /// the body timeout like any body: a trickled one holds its connection no
  /// longer than that.
  @Test func aBodyLeftUnreadMustArriveWithinTheBodyTimeout() async throws {
    let configuration = testConfiguration {
      $0.bodyTimeout = .seconds(1)
      $0.idleTimeout = .seconds(60)
    }
    try await withServer(.live, configuration) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 20)
      let start = ContinuousClock.now
      await connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{")
      let answer = await connection.readToEnd()
      let waited = ContinuousClock.now - start
      #expect(answer.hasPrefix("HTTP/1.1 200"))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
      // Closed at the deadline, not by the idle timeout a minute on (nor the
      // read's own 20 s); the upper bound leaves room for a loaded machine.
      #expect(waited >= .seconds(1) && waited < .seconds(10), "after \(waited)")
    }
  }

  /// One answer per request: a request refused before its long body is read
  /// gets its answer, and then the connection closes, with no second,
  /// unasked `400` from the parser.
  @Test(arguments: [
    "POST /v1/rows HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n[",
    "POST /v1/rows?colour=red HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n[",
    "POST /v1/rows?colour=red HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\n",
  ])
  func aRefusedRequestGetsOneAnswer(_ request: String) async throws {
    try await withServer(.live, testConfiguration { $0.maxBodySize = 1_000 }) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 10)
      await connection.send(request)
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 4"))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
    }
  }

  /// A chunk size that is not one is the client's fault: 400, and no line
  /// in the log above `info` (anyone could fill the error log).
  @Test func aMalformedChunkSizeIs400() async throws {
    let log = LogLines()
    try await withServer(.live, logger: log.logger) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 10)
      await connection.send(
        "POST /v1/rows HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n[\r\nzz\r\n]\r\n0\r\n\r\n")
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
      #expect(answer.contains("application/problem+json"))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
    }
    let loud = log.all.filter { !$0.hasPrefix("info ") && !$0.hasPrefix("debug ") && !$0.hasPrefix("trace ") }
    #expect(loud.isEmpty, "\(loud)")
    #expect(log.all.contains { $0.hasPrefix(#"info POST "/v1/rows" 400 "#) }, "\(log.all)")
  }

  /// A transfer coding the server does not decode is 501, not a body read
  /// as if it were not encoded.
  @Test func anUnknownTransferCodingIs501() async throws {
    try await withServer(.live) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 10)
      await connection.send(
        "POST /v1/rows HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n")
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 501"), "\(answer)")
      #expect(
        answer.contains(#""detail":"Transfer-Encoding \"gzip, chunked\" is not supported; expected chunked alone""#))
    }
  }

  @Test func aChunkedBodyPastTheLimitIs413() async throws {
    try await withServer(.live, testConfiguration { $0.maxBodySize = 1_000 }) { client in
      let connection = try RawConnection(port: try #require(client.port))
      await connection.send("POST /v1/rows HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
      // 100 MB offered in chunks of 64 KiB: the server stops reading past
      // the limit, and the connection closes long before it is all sent.
      var sent = 0
      let chunk = "10000\r\n" + String(repeating: " ", count: 65_536) + "\r\n"
      while sent < 100_000_000, await connection.send(chunk) { sent += 65_536 }
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 413"))
      #expect(sent < 50_000_000)
    }
  }

  @Test func aBodyThatTricklesPastTheDeadlineIs408() async throws {
    let configuration = testConfiguration {
      $0.bodyTimeout = .seconds(1)
      $0.idleTimeout = .seconds(60)
    }
    try await withServer(.live, configuration) { client in
      let connection = try RawConnection(port: try #require(client.port))
      let start = ContinuousClock.now
      await connection.send("POST /v1/rows HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n[")
      let answer = await connection.readToEnd()
      #expect(answer.hasPrefix("HTTP/1.1 408"))
      #expect(answer.contains(#""detail":"the request body did not arrive whole within 1 second""#))
      // Not before the deadline, and long before the idle timeout could end
      // the connection: the body's own deadline closed it. The upper bound
      // leaves room for a test run that loads both cores.
      let waited = ContinuousClock.now - start
      #expect(waited >= .seconds(1) && waited < .seconds(20), "after \(waited)")
      // Others are answered meanwhile, and after.
      let response = try await client.rows(RowsEndpointTests.pinned)
      #expect(response.status == .ok)
    }
  }

  /// A client trickling its body holds no place among the requests in
  /// flight: forty of them against a limit of sixteen once made every other
  /// POST get 503.
  @Test func aTricklingBodyHoldsNoPlaceInFlight() async throws {
    try await withServer(.live, testConfiguration { $0.maxRequestsInFlight = 1 }) { client in
      let port = try #require(client.port)
      let first = try RawConnection(port: port)
      await first.send("POST /v1/rows?now=2022-01-31T12:00:00Z HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n[")
      try await Task.sleep(for: .milliseconds(200))
      #expect(try await client.rows(RowsEndpointTests.pinned).status == .ok)
      await first.send("]")
      #expect(await first.read(until: "[]\n").hasPrefix("HTTP/1.1 200"))
    }
  }

  /// A body that stops partway is answered 408 when the idle timeout
  /// passes, not cut off in silence, and the connection closes.
  @Test func aStalledBodyIs408() async throws {
    let configuration = testConfiguration {
      $0.idleTimeout = .seconds(1)
      $0.bodyTimeout = .seconds(60)
    }
    try await withServer(.live, configuration) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 20)
      let start = ContinuousClock.now
      await connection.send("POST /v1/rows HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n[")
      let answer = await connection.readToEnd()
      let waited = ContinuousClock.now - start
      #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
      #expect(answer.contains(#""detail":"the request body stopped arriving for 1 second""#))
      #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "\(answer)")
      #expect(waited >= .seconds(1) && waited < .seconds(10), "after \(waited)")
    }
  }

  /// A request that does not ask to keep its connection gets its answer,
  /// marked `Connection: close`, and then the connection closes, not when
  /// the idle timeout passes.
  @Test(arguments: [
    "GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: Close\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: TE, close\r\nTE: trailers\r\n\r\n",
  ])
  func aRequestThatDoesNotKeepItsConnectionIsItsLast(_ request: String) async throws {
    try await withServer(.live, testConfiguration { $0.idleTimeout = .seconds(60) }) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 40)
      let start = ContinuousClock.now
      await connection.send(request)
      let answer = await connection.readToEnd()
      let waited = ContinuousClock.now - start
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
      #expect(answer.contains("Connection: close"))
      // Closed by the server after its answer, long before the idle timeout
      // (60 s) or the read's (40 s), however loaded the machine.
      #expect(waited < .seconds(20), "after \(waited)")
    }
  }

  /// HTTP/1.0 with `Connection: keep-alive` keeps its connection.
  @Test func http10WithKeepAliveKeepsTheConnection() async throws {
    try await withServer(.live) { client in
      let connection = try RawConnection(port: try #require(client.port), timeout: 10)
      await connection.send("GET /healthz HTTP/1.0\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
      let first = await connection.read(until: "\"ok\"}\n")
      #expect(first.hasPrefix("HTTP/1.1 200") && !first.contains("Connection: close"), "\(first)")
      await connection.send("GET /healthz HTTP/1.0\r\nHost: x\r\n\r\n")
      let second = await connection.readToEnd()
      #expect(second.hasPrefix("HTTP/1.1 200") && second.contains("Connection: close"), "\(second)")
    }
  }

  /// An answer its client does not read is not kept past the write
  /// timeout (the idle timeout): the connection closes, and the request's
  /// place among those in flight is free again. (That the place is held
  /// while the answer is written: ``requestsPastTheLimitInFlightAre503()``.)
  @Test func anAnswerNobodyReadsIsDropped() async throws {
    let configuration = testConfiguration {
      $0.maxRequestsInFlight = 1
      $0.maxBodySize = 16 << 20
      // Also how long the body may stop arriving: long enough that a loaded
      // machine, running the whole suite on two cores, does not drop the
      // 6 MB body while sending it.
      $0.idleTimeout = .seconds(10)
    }
    try await withServer(.live, configuration) { client in
      let port = try #require(client.port)
      let message =
        #"{"id":1,"firstname":"Alexander","lastname":"Anderson","message":"\#(String(repeating: "x", count: 900))","update_date":"2022-01-31T08:45:33Z","unread_count":1}"#
      // About 6 MB of rows: more than the kernel holds on loopback for a
      // client that does not read.
      let payload = "[" + Array(repeating: message, count: 6_000).joined(separator: ",") + "]"
      // Time enough to send 6 MB on a loaded machine.
      let first = try RawConnection(port: port, timeout: 30, receiveBuffer: 4_096)
      let sent = await first.send(
        "POST /v1/rows?\(RowsEndpointTests.pinned) HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n"
          + "Content-Length: \(payload.utf8.count)\r\n\r\n" + payload)
      #expect(sent, "the payload was not sent whole")
      // Long enough for a loaded machine to read the body, make the rows,
      // stall writing them and time the write out.
      try await Task.sleep(for: .seconds(25))
      // The place is free: asked on connections of their own (one kept idle
      // would be closed by the idle timeout), until a slower machine is done.
      let request =
        "POST /v1/rows?\(RowsEndpointTests.pinned) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]"
      let answered = try await answer(to: request, port: port, startingWith: "HTTP/1.1 200", within: .seconds(60))
      #expect(answered.hasPrefix("HTTP/1.1 200"), "\(answered.prefix(200))")
      // The answer was begun, and cut off: what the kernels held, at most,
      // not the 6 MB an answer the server still kept would bring.
      let received = await first.readToEnd()
      #expect(received.hasPrefix("HTTP/1.1 200"), "\(received.prefix(200))")
      #expect(received.utf8.count < 5_000_000, "\(received.utf8.count) bytes")
    }
  }

  /// The answer to `request`, sent on a new connection every tenth of a second
  /// until one starts with `prefix` or `limit` has passed: the last one.
  func answer(
    to request: String, port: Int, startingWith prefix: String, within limit: Duration
  ) async throws -> String {
    let deadline = ContinuousClock.now + limit
    var answer = ""
    repeat {
      try await Task.sleep(for: .milliseconds(100))
      let probe = try RawConnection(port: port)
      await probe.send(request)
      answer = await probe.readToEnd()
    } while !answer.hasPrefix(prefix) && ContinuousClock.now < deadline
    return answer
  }

  /// A request whose body is read counts until its answer is written: here
  /// an NDJSON answer its client does not read.
  @Test func requestsPastTheLimitInFlightAre503() async throws {
    let configuration = testConfiguration {
      $0.maxRequestsInFlight = 1
      $0.maxBodySize = 16 << 20
      // The unread answer is kept for as long as the test asks.
      $0.idleTimeout = .seconds(60)
    }
    try await withServer(.live, configuration) { client in
      let port = try #require(client.port)
      let message =
        #"{"id":1,"firstname":"Alexander","lastname":"Anderson","message":"\#(String(repeating: "x", count: 900))","update_date":"2022-01-31T08:45:33Z","unread_count":1}"#
      // About 12 MB of rows: well past what the kernel holds on loopback
      // for a client that does not read (the send buffer grows to 4 MiB,
      // and its autotuning has been seen to take 6 MB whole).
      let payload = "[" + Array(repeating: message, count: 12_000).joined(separator: ",") + "]"
      let first = try RawConnection(port: port, receiveBuffer: 4_096)
      await first.send(
        "POST /v1/rows?\(RowsEndpointTests.pinned) HTTP/1.1\r\nHost: x\r\nAccept: application/x-ndjson\r\n"
          + "Connection: close\r\nContent-Length: \(payload.utf8.count)\r\n\r\n" + payload)
      // The head of its answer shows that the first request holds the one
      // place (a loaded machine reads 12 MB slowly). Asking before that
      // could take the place first and have the first request refused.
      let deadline = ContinuousClock.now + .seconds(20)
      while !first.peek().hasPrefix("HTTP/1.1") && ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
      }
      #expect(first.peek().hasPrefix("HTTP/1.1 200"))
      let refused = try await client.rows(RowsEndpointTests.pinned)
      #expect(refused.status == .serviceUnavailable)
      #expect(refused.headers[.retryAfter] == "1")
      #expect(try ProblemBody(refused).detail == "the server is answering 1 requests already; try again in a second")
      // Health checks are not counted.
      #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
      // The answer read whole gives the place back.
      #expect(await first.readToEnd().hasPrefix("HTTP/1.1 200"))
      try await Task.sleep(for: .milliseconds(100))
      #expect(try await client.rows(RowsEndpointTests.pinned).status == .ok)
    }
  }

  /// Bodies held at once are bounded: a declared length that does not fit
  /// what others hold is 503 before any of it is read.
  @Test func aBodyPastTheBudgetIs503() async throws {
    let configuration = testConfiguration {
      $0.maxBodySize = 1_000
      $0.maxBodyMemory = 1_000
    }
    try await withServer(.live, configuration) { client in
      let port = try #require(client.port)
      let first = try RawConnection(port: port)
      await first.send(
        "POST /v1/rows?\(RowsEndpointTests.pinned) HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n[")
      try await Task.sleep(for: .milliseconds(200))
      let body = ByteBuffer(string: "[]" + String(repeating: " ", count: 198))
      let refused = try await client.rows(RowsEndpointTests.pinned, body: body)
      #expect(refused.status == .serviceUnavailable)
      #expect(refused.headers[.retryAfter] == "1")
      #expect(
        try ProblemBody(refused).detail
          == "the server holds 1000 bytes of request bodies at most, and has not room for this one now; try again in a second"
      )
      await first.send("]" + String(repeating: " ", count: 898))
      #expect(await first.read(until: "[]\n").hasPrefix("HTTP/1.1 200"))
      try await Task.sleep(for: .milliseconds(100))
      #expect(try await client.rows(RowsEndpointTests.pinned, body: body).status == .ok)
    }
  }

  @Test func formattersAreKeptWithinTheirBound() {
    let configuration = testConfiguration { $0.maxCachedFormatters = 2 }
    #expect(RowsEndpoint(configuration: configuration, logger: quietLogger).formatters.capacity == 2)
  }

  /// Each second's HTTP-date is made once, and is the date's.
  @Test func httpDatesKeptForTheirSecond() {
    let dates = HTTPDates()
    for offset in [0, 0.4, 0.99, 1, 1.5, -3, 86_400, 0] {
      let date = Date(timeIntervalSince1970: 784_111_777 + offset)
      #expect(dates.text(date) == Caching.httpDate(date), "\(offset)")
    }
  }

  @Test func httpDates() {
    #expect(Caching.httpDate(Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(InboxFormatter.utcText(roundingDown: Date(timeIntervalSince1970: 1_643_670_000)) == "2022-01-31T23:00:00Z")
    #expect(
      InboxFormatter.utcText(roundingDown: Date(timeIntervalSince1970: 1_643_670_000.7)) == "2022-01-31T23:00:00Z")
  }

  @Test func freshnessRoundsDown() {
    let now = Date(timeIntervalSince1970: 1000)
    #expect(
      Caching.freshness(now: now, validUntil: now.addingTimeInterval(59.9), pinned: false).cacheControl == "max-age=59")
    #expect(
      Caching.freshness(now: now, validUntil: now.addingTimeInterval(-5), pinned: false).cacheControl == "max-age=0")
    #expect(Caching.freshness(now: now, validUntil: nil, pinned: false).cacheControl == "max-age=31536000")
  }
}

@Suite struct EntityTagTests {
  /// Cut in three anywhere, a body longer than four words of each lane
  /// gives the tag it gives whole.
  @Test func theTagDoesNotDependOnHowTheBodyIsCut() {
    let row = "{\"id\":1,\"initials\":\"AA\",\"title\":\"Alexander Anderson\"}\n"
    let body = Array((row + row + row).utf8)
    var whole = EntityTagHasher()
    whole.add(body)
    let tag = whole.tag(contentType: "application/json", language: "en-US")
    for cut in 0...body.count {
      for second in cut...body.count {
        var pieces = EntityTagHasher()
        pieces.add(Array(body[..<cut]))
        pieces.add(Array(body[cut..<second]))
        pieces.add(Array(body[second...]))
        #expect(pieces.tag(contentType: "application/json", language: "en-US") == tag)
      }
    }
    #expect(whole.tag(contentType: "application/json", language: "fr-FR") != tag)
    var other = EntityTagHasher()
    other.add(body + [0])
    #expect(other.tag(contentType: "application/json", language: "en-US") != tag)
    #expect(tag.hasSuffix("-\(String(body.count, radix: 16))\""))
    // The lanes are folded in order: two words swapped give another tag.
    var swapped = EntityTagHasher()
    swapped.add(Array(body[8..<16] + body[0..<8] + body[16...]))
    #expect(swapped.tag(contentType: "application/json", language: "en-US") != tag)
  }

  /// The tag is what its documentation describes, computed here a byte at
  /// a time: the body's words zero-padded, word *i* into lane *i* mod 4 by
  /// FNV-1a, the lanes folded in order, then a NUL, the media type, a NUL
  /// and the language; the hash in 16 hex digits, then the length in hex.
  @Test func theTagIsTheDocumentedHashInHex() {
    func step(_ hash: UInt64, _ value: UInt64) -> UInt64 { (hash ^ value) &* 0x0000_0100_0000_01B3 }
    let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    func documented(_ body: [UInt8], _ type: String, _ language: String) -> String {
      var lanes = [basis, basis, basis, basis]
      for (index, start) in stride(from: 0, to: body.count, by: 8).enumerated() {
        var word: UInt64 = 0
        for (shift, byte) in body[start..<min(start + 8, body.count)].enumerated() {
          word |= UInt64(byte) << (8 * UInt64(shift))
        }
        lanes[index % 4] = step(lanes[index % 4], word)
      }
      var hash = lanes.reduce(basis, step)
      for byte in [0] + Array(type.utf8) + [0] + Array(language.utf8) { hash = step(hash, UInt64(byte)) }
      let digits = String(hash, radix: 16)
      return "\"\(String(repeating: "0", count: 16 - digits.count))\(digits)-\(String(body.count, radix: 16))\""
    }
    var state: UInt64 = 1
    for length in [0, 1, 7, 8, 9, 31, 32, 33, 255, 256, 4097] {
      let body = (0..<length).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
      }
      var hasher = EntityTagHasher()
      hasher.add(body)
      for (type, language) in [("application/json", "en-US"), ("application/x-ndjson", ""), ("", "zh-Hant-TW")] {
        #expect(hasher.tag(contentType: type, language: language) == documented(body, type, language))
      }
    }
  }
}
