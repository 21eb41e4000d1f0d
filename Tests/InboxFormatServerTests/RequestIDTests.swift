import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import InboxFormatServer

/// `X-Request-Id` and `traceparent`: every answer, problem document and
/// access log line names its request.
@Suite struct RequestIDTests {
  @Test(arguments: ["a", "req-42", "A.b_c-9", String(repeating: "x", count: 128)])
  func aUsableIDIsKept(_ id: String) async throws {
    try await withServer { client in
      let response = try await client.execute(uri: "/healthz", method: .get, headers: [requestIDField: id])
      #expect(response.headers[requestIDField] == id)
    }
  }

  @Test(arguments: [
    "", String(repeating: "x", count: 129), "a b", "a\u{1B}[2J", "é", "a,b", "a/b", "<script>",
  ])
  func anyOtherIDIsReplaced(_ id: String) async throws {
    try await withServer { client in
      let response = try await client.execute(uri: "/healthz", method: .get, headers: [requestIDField: id])
      let answered = try #require(response.headers[requestIDField])
      #expect(answered != id)
      #expect(RequestID.isValid(answered))
    }
  }

  @Test func twoIDsAreReplacedByOne() async throws {
    try await withServer { client in
      var headers: HTTPFields = [:]
      headers.append(HTTPField(name: requestIDField, value: "one"))
      headers.append(HTTPField(name: requestIDField, value: "two"))
      let response = try await client.execute(uri: "/healthz", method: .get, headers: headers)
      let answered = try #require(response.headers[requestIDField])
      #expect(answered != "one" && answered != "two" && RequestID.isValid(answered))
    }
  }

  @Test func idsMadeAreUniqueAndUsable() {
    let ids = (0..<10_000).map { _ in RequestID.make() }
    #expect(Set(ids).count == ids.count)
    #expect(ids.allSatisfy(RequestID.isValid))
  }

  /// Every problem document names the request, whoever answers it.
  @Test(arguments: [TestingSetup.router, .live])
  func problemsCarryTheRequestID(_ setup: TestingSetup) async throws {
    try await withServer(setup) { client in
      let notFound = try await client.execute(uri: "/nowhere", method: .get, headers: [requestIDField: "lost-1"])
      #expect(try ProblemBody(notFound).requestId == "lost-1")
      let badPayload = try await client.rows("now=2022-01-31T12:00:00Z", body: ByteBuffer(string: "[{"))
      _ = try ProblemBody(badPayload)  // checks `requestId` against the answer's header
      let badMethod = try await client.execute(uri: "/healthz", method: .delete)
      _ = try ProblemBody(badMethod)
      #expect(String(buffer: badMethod.body).hasSuffix(#","requestId":"\#(badMethod.headers[requestIDField]!)"}\#n"#))
    }
  }

  @Test func theAccessLogNamesTheRequestAndItsTrace() async throws {
    let log = LogLines()
    let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    try await withServer(.live, logger: log.logger) { client in
      _ = try await client.execute(
        uri: "/healthz", method: .get,
        headers: [requestIDField: "abc-1", HTTPField.Name("traceparent")!: traceparent])
      _ = try await client.execute(uri: "/healthz", method: .get, headers: [requestIDField: "abc-2"])
    }
    let lines = zip(log.all, log.allMetadata).filter { $0.0.hasPrefix(#"info GET "/healthz" 200 "#) }
    #expect(lines.count == 2)
    let first = try #require(lines.first { $0.1["request_id"] == "abc-1" }?.1)
    #expect(first["trace_id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
    #expect(first["method"] == "GET")
    #expect(first["path"] == "/healthz")
    #expect(first["status"]?.description == "200")
    let second = try #require(lines.first { $0.1["request_id"] == "abc-2" }?.1)
    #expect(second["trace_id"] == nil)
  }

  @Test func traceParents() {
    let valid = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    #expect(TraceParent.traceID(valid) == "4bf92f3577b34da6a3ce929d0e0e4736")
    // A later version may add fields after a dash.
    #expect(TraceParent.traceID("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes") != nil)
    #expect(TraceParent.traceID("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01") != nil)
    for invalid in [
      "", "00", valid + "-", valid + "x", "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
      "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
      "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // trace id zero
      "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // parent id zero
      "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",  // dashes misplaced
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0g",
      "0x-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\u{1B}",
    ] {
      #expect(TraceParent.traceID(invalid) == nil, "\(invalid)")
    }
    var two: HTTPFields = [:]
    two.append(HTTPField(name: .traceparent, value: valid))
    two.append(HTTPField(name: .traceparent, value: valid))
    #expect(TraceParent.traceID(two) == nil)
  }
}
