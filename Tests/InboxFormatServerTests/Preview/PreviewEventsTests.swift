import Foundation
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import NIOCore
import Synchronization
import Testing

@testable import InboxFormatServer

/// `GET /events` on a live server, read as a browser's EventSource reads it.
@Suite struct PreviewEventsTests {
  /// A preview of `source` with the example's settings; `frozen` stops the clock at ``exampleNow``.
  func previewConfiguration(
    _ source: PreviewSource, locales: [String] = ["en-US"], frozen: Bool = true,
    clock: @escaping @Sendable () -> Date = { exampleNow }
  ) -> ServerConfiguration {
    testConfiguration {
      $0.frozenNow = frozen ? exampleNow : nil
      $0.clock = clock
      $0.preview = PreviewConfiguration(
        source: source, locales: locales.map { Locale(identifier: $0) }, fileName: "\"mock.json\"")
    }
  }

  /// The library's rows for the example in `locale` at `now`, with the page's fields, on one line.
  func expectedRows(locale: String = "en-US", now: Date = exampleNow, payload: [UInt8]) throws -> String {
    let context = FormattingContext(
      now: now, locale: Locale(identifier: locale), timeZone: TimeZone(identifier: "Europe/Paris")!,
      fields: RowField.defaults + [.spokenDate, .titleDirection, .messageDirection, .avatarColor])
    var rows = try libraryOutput(payload, context)
    while rows.hasSuffix("\n") { rows.removeLast() }
    return rows
  }

  @Test func theFirstEventHoldsEachScreensRowsAsTheLibraryWritesThem() async throws {
    let source = PreviewSource()
    let payload = Array(examplePayload.readableBytesView)
    source.update(payload: payload)
    try await withServer(.live, previewConfiguration(source, locales: ["en-US", "ar-EG"])) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      let head = await events.head()
      #expect(head.hasPrefix("HTTP/1.1 200"))
      #expect(head.lowercased().contains("content-type: text/event-stream; charset=utf-8"))
      #expect(head.contains("Content-Security-Policy: default-src 'none'; script-src 'self'"))
      let render = try #require(await events.next())
      #expect(render.name == "render")
      let data = try #require(render.data)
      let screens = try #require(data["screens"] as? [[String: Any]])
      #expect(screens.map { $0["locale"] as? String } == ["en-US", "ar-EG"])
      #expect(screens.map { $0["direction"] as? String } == ["ltr", "rtl"])
      #expect(data["now"] as? String == "2022-01-31T12:00:00Z")
      #expect(data["problem"] is NSNull)
      // The rows, byte for byte as the library writes them.
      #expect(render.raw.contains(#""rows":\#(try expectedRows(payload: payload))}"#))
      #expect(render.raw.contains(#""rows":\#(try expectedRows(locale: "ar-EG", payload: payload))}"#))
    }
  }

  /// On a frozen clock and an unchanged file a stream writes nothing after
  /// its first event, so no failed write can tell that its client went: the
  /// closed input must.
  @Test func aStreamWhoseClientGoesIsReleasedWithinASecond() async throws {
    let source = PreviewSource()
    source.update(payload: Array(examplePayload.readableBytesView))
    try await withServer(.live, previewConfiguration(source)) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      #expect(try #require(await events.next()).name == "render")
      #expect(source.waitingCount == 1)
      let start = ContinuousClock.now
      events.goAway()
      while source.waitingCount > 0, ContinuousClock.now - start < .seconds(3) {
        try await Task.sleep(for: .milliseconds(20))
      }
      #expect(source.waitingCount == 0)
      #expect(ContinuousClock.now - start < .seconds(1))
      // The server closes its side too: the connection is not left half open.
      #expect(await events.rest().hasSuffix("0\r\n\r\n"))
    }
  }

  @Test func eachReadingRendersAgainAndAProblemKeepsTheLastGoodRows() async throws {
    let source = PreviewSource()
    let payload = Array(examplePayload.readableBytesView)
    source.update(payload: payload)
    try await withServer(.live, previewConfiguration(source)) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      _ = try #require(await events.next())
      let edited = Array(
        String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "Alexander", with: "Alex").utf8)
      source.update(payload: edited)
      let afterEdit = try #require(await events.next())
      #expect(afterEdit.raw.contains(#""rows":\#(try expectedRows(payload: edited))}"#))
      source.update(problem: "\"mock.json\": line 1, column 2: invalid JSON")
      let afterProblem = try #require(await events.next())
      #expect(afterProblem.data?["problem"] as? String == "\"mock.json\": line 1, column 2: invalid JSON")
      #expect(afterProblem.raw.contains(#""rows":\#(try expectedRows(payload: edited))}"#))
      source.update(payload: payload)
      let fixed = try #require(await events.next())
      #expect(fixed.data?["problem"] is NSNull)
    }
  }

  @Test func nothingDecodedYetIsNullRowsAndTheProblem() async throws {
    let source = PreviewSource()
    source.update(problem: "\"mock.json\": the input is empty")
    try await withServer(.live, previewConfiguration(source)) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      let render = try #require(await events.next())
      #expect(render.raw.contains(#""rows":null"#))
      #expect(render.data?["problem"] as? String == "\"mock.json\": the input is empty")
    }
  }

  /// A running clock half a second before midnight in Paris: the stream
  /// renders again by itself when 9:45 AM becomes yesterday's.
  @Test func aStaleLabelRendersAgainAtItsInstant() async throws {
    let source = PreviewSource()
    source.update(payload: Array(examplePayload.readableBytesView))
    let midnight = Date(timeIntervalSince1970: 1_643_670_000)  // 2022-02-01T00:00:00+01:00
    // The clock starts at its first reading: the stream's first render.
    let started = Mutex<Date?>(nil)
    let configuration = previewConfiguration(source, frozen: false) {
      let now = Date()
      let start = started.withLock { start in
        if start == nil { start = now }
        return start!
      }
      return midnight.addingTimeInterval(-0.5 + now.timeIntervalSince(start))
    }
    try await withServer(.live, configuration) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      let before = try #require(await events.next())
      #expect(before.raw.contains(#""date":"9:45\#u{202F}AM""#))
      let waited = ContinuousClock.now
      let after = try #require(await events.next())
      #expect(
        after.raw.contains(
          #""id":1,"initials":"AA","title":"Alexander Anderson","message":"Hello!! How are you?","date":"Yesterday""#))
      // Half a second on the stream's clock; the bound leaves room for a
      // test run that loads both cores (a stream without its timer never
      // renders again).
      #expect(ContinuousClock.now - waited < .seconds(10))
    }
  }

  @Test func thePagesSettingsAreReadFromTheQuery() async throws {
    let source = PreviewSource()
    let payload = Array(examplePayload.readableBytesView)
    source.update(payload: payload)
    try await withServer(.live, previewConfiguration(source)) { client in
      // A day forward, in Tokyo on a 24-hour clock.
      let events = try EventReader(
        port: try #require(client.port), path: "/events?locale=ja-JP&timeZone=Asia%2FTokyo&hourCycle=24&offset=86400")
      let render = try #require(await events.next())
      #expect(render.data?["now"] as? String == "2022-02-01T12:00:00Z")
      let settings = try #require(render.data?["settings"] as? [String: Any])
      #expect(settings["locale"] as? String == "ja-JP")
      #expect(settings["timeZone"] as? String == "Asia/Tokyo")
      #expect(settings["hourCycle"] as? String == "24")
      #expect(settings["offset"] as? Int == 86_400)
      let context = FormattingContext(
        now: exampleNow.addingTimeInterval(86_400), locale: Locale(identifier: "ja-JP"),
        timeZone: TimeZone(identifier: "Asia/Tokyo")!, hourCycle: .twentyFourHour,
        fields: RowField.defaults + [.spokenDate, .titleDirection, .messageDirection, .avatarColor])
      var rows = try libraryOutput(payload, context)
      rows.removeLast()
      #expect(render.raw.contains(#""rows":\#(rows)}"#))
    }
  }

  @Test(arguments: [
    ("locale=a,b,c,d,e,f,g,h,i", "locale"),
    ("locale=en-US,not%20a%20locale", "locale"),
    ("timeZone=Mars%2FOlympus", "timeZone"),
    ("offset=3155760001", "offset"),
    ("offset=1.5", "offset"),
    ("hourCycle=13", "hourCycle"),
    ("dateStyle=long", "dateStyle"),
    ("theme=dark", "theme"),
    ("offset=1&offset=2", "offset"),
  ])
  func aSettingThatCannotBeUsedIs400NamingIt(query: String, parameter: String) async throws {
    try await withServer(.router, previewConfiguration(PreviewSource())) { client in
      try await client.execute(uri: "/events?\(query)", method: .get) { response in
        #expect(response.status == .badRequest)
        let problem = try ProblemBody(response)
        #expect(problem.parameter == parameter)
      }
    }
  }

  @Test func everyAnswerCarriesThePagesPolicy() async throws {
    try await withServer(.router, previewConfiguration(PreviewSource())) { client in
      for path in ["/", "/preview.js", "/preview.css", "/favicon.svg", "/nowhere", "/healthz"] {
        try await client.execute(uri: path, method: .get) { response in
          #expect(
            response.headers[.contentSecurityPolicy]
              == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
              + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'", "\(path)")
          #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(path)")
        }
      }
      try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        let page = String(buffer: response.body)
        // No inline script or style: the policy would block them.
        #expect(page.contains(#"<script src="/preview.js" defer></script>"#))
        #expect(!page.contains("<style"))
        #expect(!page.contains(" style="))
        #expect(page.firstMatch(of: #/\son[a-z]+=/#) == nil)
      }
      try await client.execute(uri: "/events", method: .head) { response in
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET")
      }
      // A 404 names the page and its events with the service's endpoints.
      let missing = try await client.execute(uri: "/nowhere", method: .get)
      #expect(missing.status == .notFound)
      #expect(
        try ProblemBody(missing).detail
          == #"nothing at "/nowhere"; expected GET /, GET /events, POST /v1/rows, GET /healthz, GET /readyz or GET /openapi.yaml"#
      )
    }
  }

  @Test func theServiceAloneServesNoPage() async throws {
    try await withServer(.router) { client in
      try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .notFound)
        #expect(response.headers[.contentSecurityPolicy] == nil)
      }
    }
  }

  /// Exactly the names it is bound to, each alone or with a port of digits.
  @Test(arguments: [
    ("127.0.0.1:8080", true), ("127.0.0.1", true), ("localhost:8080", true), ("LOCALHOST", true),
    ("[::1]:8080", true), ("[::1]", true), ("127.0.0.2:8080", true),
    ("127.1.2.3:80", false), ("app.localhost:8080", false), ("[::1]evil.example", false),
    ("[::1]:8080evil", false), ("localhost:", false), ("localhost:123456", false), ("localhost:80a", false),
    ("127.0.0.1:8080:80", false), ("attacker.example", false), ("attacker.example:8080", false),
    ("127.0.0.1.attacker.example", false), ("localhost.attacker.example", false), ("[::2]:8080", false),
    ("127.0.0.256", false), ("", false), ("10.0.0.1:8080", false),
  ])
  func onlyTheBoundNamesAreAnsweredOnLoopback(host: String, isBound: Bool) {
    #expect(PreviewGuardMiddleware(boundTo: "127.0.0.2").isBoundName(host: host) == isBound)
  }

  @Test func aRequestToAnotherNameIs403() async throws {
    try await withServer(.live, previewConfiguration(PreviewSource())) { client in
      let port = try #require(client.port)
      for host in ["attacker.example", "[::1]evil.example", "app.localhost"] {
        let answer = await Self.answer(to: "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n", port: port)
        #expect(answer.hasPrefix("HTTP/1.1 403"), "\(host)")
        #expect(answer.contains("answers requests to 127.0.0.1, localhost or [::1] only"))
      }
      let good = await Self.answer(
        to: "GET / HTTP/1.1\r\nHost: localhost:\(port)\r\nConnection: close\r\n\r\n", port: port)
      #expect(good.hasPrefix("HTTP/1.1 200"))
    }
  }

  /// No `Host`, or two, is 400 (RFC 9112 §3.2): the first of two is not taken.
  @Test(arguments: [
    "GET / HTTP/1.0\r\n\r\n",
    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n",
    "GET /events HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\nConnection: close\r\n\r\n",
  ])
  func aMissingOrRepeatedHostIs400(_ request: String) async throws {
    try await withServer(.live, previewConfiguration(PreviewSource())) { client in
      let answer = await Self.answer(to: request, port: try #require(client.port))
      #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
      #expect(answer.contains("application/problem+json"))
      #expect(
        answer.contains(#""detail":"a request needs a Host field; this one has none""#)
          || answer.contains(#""detail":"a request has one Host field; this one has 2""#))
    }
  }

  /// Another site's page may not use the preview, on any method or path,
  /// even where its browser would not let it read the answer; the page's
  /// own origin, and no origin at all, are answered.
  @Test func anotherSitesOriginIs403() async throws {
    try await withServer(.live, previewConfiguration(PreviewSource())) { client in
      let port = try #require(client.port)
      for (method, path) in [("GET", "/events"), ("GET", "/"), ("POST", "/v1/rows"), ("GET", "/healthz")] {
        for origin in ["http://attacker.example", "null", "http://localhost:\(port)", "https://127.0.0.1:\(port)"] {
          let answer = await Self.answer(
            to: "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: \(origin)\r\n"
              + "Content-Length: 0\r\nConnection: close\r\n\r\n", port: port)
          #expect(answer.hasPrefix("HTTP/1.1 403"), "\(method) \(path) from \(origin)")
          #expect(answer.contains("this preview answers its own page only"))
        }
      }
      let own = await Self.answer(
        to:
          "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://127.0.0.1:\(port)\r\nConnection: close\r\n\r\n",
        port: port)
      #expect(own.hasPrefix("HTTP/1.1 200"))
      let none = await Self.answer(
        to: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port)
      #expect(none.hasPrefix("HTTP/1.1 200"))
    }
  }

  private static func answer(to request: String, port: Int) async -> String {
    guard let connection = try? RawConnection(port: port, timeout: 10) else { return "not connected" }
    await connection.send(request)
    return await connection.readToEnd()
  }

  @Test func theScriptPutsNothingInAsMarkup() {
    let script = PreviewPage.script
    for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
      #expect(!script.contains(sink), "\(sink)")
    }
  }
}

/// Reads a server-sent event stream from a raw connection, event by event:
/// the chunked body decoded, then split into events at blank lines.
final class EventReader: Sendable {
  struct Event {
    var name: String?
    /// The `data` field, as it came.
    var raw: String
    var data: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any] }
  }

  private struct State {
    /// What arrived and is not decoded yet.
    var received: [UInt8] = []
    var head: String?
    /// The body so far, chunking removed, less the events already read.
    var body: [UInt8] = []
  }

  private let connection: RawConnection
  private let state = Mutex(State())

  init(port: Int, path: String) throws {
    connection = try RawConnection(port: port, timeout: 10)
    Task { [connection] in
      await connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    }
  }

  /// Stops sending, as a page that is closed does.
  func goAway() {
    connection.finishSending()
  }

  /// What the server sends until it closes the connection.
  func rest() async -> String {
    await connection.readToEnd()
  }

  /// The answer's head; empty when none came.
  func head() async -> String {
    while true {
      if let head = state.withLock({ $0.head }) { return head }
      guard await receive() else { return "" }
    }
  }

  /// The next event that carries data; nil when the stream ends or stalls (10 s).
  func next() async -> Event? {
    _ = await head()
    while true {
      if let event = state.withLock({ Self.takeEvent(from: &$0.body) }) { return event }
      guard await receive() else { return nil }
    }
  }

  /// Reads more from the connection and decodes what it can; false when nothing came.
  private func receive() async -> Bool {
    let more = await connection.read(until: "\n")
    guard !more.isEmpty else { return false }
    state.withLock { state in
      state.received += Array(more.utf8)
      if state.head == nil, let end = state.received.firstRange(of: Array("\r\n\r\n".utf8)) {
        state.head = String(decoding: state.received[..<end.lowerBound], as: UTF8.self)
        state.received.removeSubrange(..<end.upperBound)
      }
      guard state.head != nil else { return }
      // Chunks: a hexadecimal size line, that many bytes, CRLF.
      while let lineEnd = state.received.firstRange(of: Array("\r\n".utf8)),
        let size = Int(String(decoding: state.received[..<lineEnd.lowerBound], as: UTF8.self), radix: 16),
        state.received.count >= lineEnd.upperBound + size + 2
      {
        state.body += state.received[lineEnd.upperBound..<(lineEnd.upperBound + size)]
        state.received.removeSubrange(..<(lineEnd.upperBound + size + 2))
      }
    }
    return true
  }

  private static func takeEvent(from body: inout [UInt8]) -> Event? {
    while let end = body.firstRange(of: Array("\n\n".utf8)) {
      let block = String(decoding: body[..<end.lowerBound], as: UTF8.self)
      body.removeSubrange(..<end.upperBound)
      let lines = block.split(separator: "\n")
      let name = lines.first { $0.hasPrefix("event: ") }.map { String($0.dropFirst(7)) }
      if let data = lines.first(where: { $0.hasPrefix("data: ") }) {
        return Event(name: name, raw: String(data.dropFirst(6)))
      }
    }
    return nil
  }
}
