import Foundation
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import Logging
import NIOCore
import Testing

@testable import InboxFormatServer

/// `GET /metrics`: the counts move by exactly the requests made, labels
/// stay bounded, and the answer is a valid Prometheus text exposition.
@Suite struct MetricsTests {
  static let requests = "inbox_format_http_requests_total"
  static let durations = "inbox_format_http_request_duration_seconds"

  /// Each `inbox_format_http_requests_total` series and its count.
  func requestCounts(_ exposition: Exposition) -> [Exposition.Series: Double] {
    var counts: [Exposition.Series: Double] = [:]
    for series in exposition.series(named: Self.requests) {
      counts[series] = exposition.value(series.name, series.labels)
    }
    return counts
  }

  func requestSeries(_ route: String, _ method: String, _ status: Int) -> Exposition.Series {
    Exposition.Series(name: Self.requests, labels: ["route": route, "method": method, "status": String(status)])
  }

  @Test(arguments: [TestingSetup.router, .live])
  func theAnswerIsAnExpositionNeverCached(_ setup: TestingSetup) async throws {
    try await withServer(setup) { client in
      // Requests are counted from the first answered on: this one.
      _ = try await client.execute(uri: "/metrics", method: .get)
      let response = try await client.execute(uri: "/metrics", method: .get)
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
      #expect(response.headers[.cacheControl] == "no-store")
      #expect(response.headers[requestIDField] != nil)
      let exposition = try Exposition(String(buffer: response.body))
      #expect(exposition.types[Self.requests] == "counter")
      #expect(exposition.types[Self.durations] == "histogram")
      for family in exposition.types.keys {
        #expect(family.hasPrefix("inbox_format_") || family.hasPrefix("process_"), "\(family)")
        #expect(exposition.help[family]?.isEmpty == false, "\(family) has no help")
      }
      let head = try await client.execute(uri: "/metrics", method: .head)
      #expect(head.status == .ok)
      #expect(head.body.readableBytes == 0)
      #expect(head.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
    }
  }

  @Test func otherMethodsAre405() async throws {
    try await withServer { client in
      for method in [HTTPRequest.Method.post, .put, .delete] {
        let response = try await client.execute(uri: "/metrics", method: method)
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "GET, HEAD")
        _ = try ProblemBody(response)
      }
    }
  }

  @Test func noMetricsMakesThePathA404() async throws {
    try await withServer(.router, testConfiguration { $0.metrics = false }) { client in
      let response = try await client.execute(uri: "/metrics", method: .get)
      #expect(response.status == .notFound)
      _ = try ProblemBody(response)
    }
  }

  /// Between two scrapes, each series moves by the answers given and no
  /// other moves; the first scrape is counted in the second.
  @Test func theCountsMoveByExactlyTheAnswersGiven() async throws {
    let largest = examplePayload.readableBytes
    try await withServer(.router, testConfiguration { $0.maxBodySize = largest }) { client in
      let before = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      #expect(try await client.rows(RowsEndpointTests.pinned).status == .ok)
      #expect(
        try await client.rows(body: ByteBuffer(repeating: UInt8(ascii: " "), count: largest + 1)).status
          == .contentTooLarge)
      #expect(try await client.execute(uri: "/nowhere", method: .get).status == .notFound)
      #expect(try await client.execute(uri: "/v2/rows?locale=en-US", method: .get).status == .notFound)
      #expect(try await client.execute(uri: "/healthz", method: .delete).status == .methodNotAllowed)
      #expect(try await client.execute(uri: "/healthz", method: .head).status == .ok)
      let after = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))

      let expected: [Exposition.Series: Double] = [
        requestSeries("/v1/rows", "POST", 200): 1, requestSeries("/v1/rows", "POST", 413): 1,
        requestSeries("unmatched", "GET", 404): 2, requestSeries("/healthz", "DELETE", 405): 1,
        requestSeries("/healthz", "HEAD", 200): 1, requestSeries("/metrics", "GET", 200): 1,
      ]
      let (old, new) = (requestCounts(before), requestCounts(after))
      var moved: [Exposition.Series: Double] = [:]
      for (series, count) in new where count != old[series, default: 0] {
        moved[series] = count - old[series, default: 0]
      }
      #expect(moved == expected)
      // The durations, by route alone.
      for (route, count) in [("/v1/rows", 2.0), ("unmatched", 2), ("/healthz", 2), ("/metrics", 1), ("/readyz", 0)] {
        let labels = ["route": route]
        let grew =
          (after.value(Self.durations + "_count", labels) ?? -1)
          - (before.value(Self.durations + "_count", labels) ?? 0)
        #expect(grew == count, "\(route)")
      }
      #expect(after.value(Self.durations + "_sum", ["route": "/v1/rows"])! > 0)
    }
  }

  /// An answer to HEAD has no body to write: it is logged and counted once,
  /// when it is made, on a GET route (whose body Hummingbird's HEAD drops)
  /// as on a path that has none.
  @Test func headIsLoggedAndCountedOnce() async throws {
    let log = LogLines()
    try await withServer(.router, logger: log.logger) { client in
      #expect(try await client.execute(uri: "/healthz", method: .head).status == .ok)
      #expect(try await client.execute(uri: "/nowhere", method: .head).status == .notFound)
      let exposition = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      #expect(exposition.value(Self.requests, ["route": "/healthz", "method": "HEAD", "status": "200"]) == 1)
      #expect(exposition.value(Self.requests, ["route": "unmatched", "method": "HEAD", "status": "404"]) == 1)
    }
    let heads = log.all.filter { $0.hasPrefix("info HEAD ") }
    #expect(heads.count == 2, "\(log.all)")
    #expect(heads.contains { $0.hasPrefix(#"info HEAD "/healthz" 200 "#) && $0.hasSuffix(" ms 0 B") }, "\(heads)")
    #expect(heads.contains { $0.hasPrefix(#"info HEAD "/nowhere" 404 "#) && $0.hasSuffix(" ms 0 B") }, "\(heads)")
  }

  /// However many paths, query strings and methods are asked for, the
  /// labels are the routes the service has, `unmatched`, eight methods and
  /// the statuses it answers.
  @Test func labelsStayBoundedUnderManyUnknownPaths() async throws {
    try await withServer { client in
      let methods: [HTTPRequest.Method] = [.get, .post, .put, .options, HTTPRequest.Method("PROPFIND")!]
      for index in 0..<300 {
        let path = "/x\(index)/\(UUID().uuidString)?q=\(index)&token=secret\(index)"
        _ = try await client.execute(uri: path, method: methods[index % methods.count])
      }
      let exposition = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      let series = exposition.series(named: Self.requests)
      let routes = Set(series.compactMap { $0.labels["route"] })
      #expect(routes == ["unmatched"])
      #expect(Set(series.compactMap { $0.labels["method"] }) == ["GET", "POST", "PUT", "OPTIONS", "other"])
      #expect(Set(series.compactMap { $0.labels["status"] }) == ["404"])
      #expect(series.count == 5)
      #expect(series.reduce(0) { $0 + exposition.value($1.name, $1.labels)! } == 300)
      // Each route the service has, and `unmatched`: a duration histogram each.
      let counts = exposition.series(named: Self.durations + "_count")
      let durationRoutes = Set(counts.map { $0.labels["route"] ?? "" })
      #expect(durationRoutes == ["/v1/rows", "/healthz", "/readyz", "/openapi.yaml", "/metrics", "unmatched"])
      // No series anywhere names what a request held.
      let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
      #expect(!text.contains("secret") && !text.contains("/x1"))
    }
  }

  /// The formatter cache's hits, misses and evictions, and what it keeps.
  @Test func theFormatterCacheIsCounted() async throws {
    try await withServer(.router, testConfiguration { $0.maxCachedFormatters = 1 }) { client in
      func scrape() async throws -> Exposition {
        try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      }
      let before = try await scrape()
      #expect(before.value("inbox_format_formatter_cache_hits_total") == 0)
      #expect(before.value("inbox_format_formatter_cache_misses_total") == 0)
      #expect(before.value("inbox_format_formatter_cache_entries") == 0)
      #expect(before.value("inbox_format_formatter_cache_capacity") == 1)
      #expect(try await client.rows(RowsEndpointTests.pinned).status == .ok)  // a miss
      // A hit: the same settings at any instant.
      #expect(try await client.rows("locale=en-US&timeZone=Europe%2FParis&now=2022-02-01T00:00:00Z").status == .ok)
      let warm = try await scrape()
      #expect(warm.value("inbox_format_formatter_cache_hits_total") == 1)
      #expect(warm.value("inbox_format_formatter_cache_misses_total") == 1)
      #expect(warm.value("inbox_format_formatter_cache_evictions_total") == 0)
      #expect(warm.value("inbox_format_formatter_cache_entries") == 1)
      // A miss, and en-US makes room.
      #expect(try await client.rows("locale=fr-FR&timeZone=Europe%2FParis&now=2022-01-31T12:00:00Z").status == .ok)
      let after = try await scrape()
      #expect(after.value("inbox_format_formatter_cache_hits_total") == 1)
      #expect(after.value("inbox_format_formatter_cache_misses_total") == 2)
      #expect(after.value("inbox_format_formatter_cache_evictions_total") == 1)
      #expect(after.value("inbox_format_formatter_cache_entries") == 1)
    }
  }

  /// Each limit's 503s, counted by the option that sets it.
  @Test(arguments: [
    ("max_requests_in_flight", testConfiguration { $0.maxRequestsInFlight = 0 }),
    ("max_body_memory", testConfiguration { $0.maxBodyMemory = 10 }),
  ])
  func refusalsAreCountedByLimit(_ limit: String, _ configuration: ServerConfiguration) async throws {
    try await withServer(.router, configuration) { client in
      for _ in 0..<3 {
        #expect(try await client.rows(RowsEndpointTests.pinned).status == .serviceUnavailable)
      }
      let exposition = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      #expect(exposition.value("inbox_format_limit_refusals_total", ["limit": limit]) == 3)
      let other = limit == "max_body_memory" ? "max_requests_in_flight" : "max_body_memory"
      #expect(exposition.value("inbox_format_limit_refusals_total", ["limit": other]) == 0)
      #expect(exposition.value(Self.requests, ["route": "/v1/rows", "method": "POST", "status": "503"]) == 3)
      #expect(
        exposition.value("inbox_format_requests_in_flight_limit") == Double(configuration.maxRequestsInFlight))
      #expect(exposition.value("inbox_format_body_memory_limit_bytes") == Double(configuration.maxBodyMemory))
    }
  }

  /// The gauges read the limits' places and bytes held as they are.
  @Test func theGaugesReadWhatIsHeld() throws {
    let configuration = testConfiguration { $0.maxBodyMemory = 1_000 }
    let rows = RowsEndpoint(configuration: configuration, logger: quietLogger)
    let streams = OpenCount()
    let metrics = ServerMetrics(
      paths: ["/v1/rows"],
      sources: ServerMetrics.Sources(
        inFlight: rows.inFlight, bodies: rows.bodies, formatters: rows.formatters, streams: streams,
        logSink: LogSink(descriptor: -1, capacity: 1 << 10), version: "1.2.3"))
    func scrape() throws -> Exposition { try Exposition(String(decoding: metrics.exposition(), as: UTF8.self)) }
    let idle = try scrape()
    #expect(idle.value("inbox_format_requests_in_flight") == 0)
    #expect(idle.value("inbox_format_body_memory_bytes") == 0)
    #expect(idle.value("inbox_format_preview_event_streams") == 0)
    let permits = [rows.inFlight.acquire(), rows.inFlight.acquire()]
    let share = rows.bodies.share()
    #expect(share.grow(to: 900))
    #expect(!rows.bodies.share().grow(to: 200))
    streams.open()
    let busy = try scrape()
    #expect(busy.value("inbox_format_requests_in_flight") == 2)
    #expect(busy.value("inbox_format_body_memory_bytes") == 900)
    #expect(busy.value("inbox_format_limit_refusals_total", ["limit": "max_body_memory"]) == 1)
    #expect(busy.value("inbox_format_preview_event_streams") == 1)
    #expect(busy.value("inbox_format_build_info", ["version": "1.2.3"]) == 1)
    withExtendedLifetime((permits, share)) {}
  }

  /// Log lines the sink dropped, as it counts them.
  @Test func droppedLogLinesAreCounted() throws {
    let configuration = testConfiguration()
    let rows = RowsEndpoint(configuration: configuration, logger: quietLogger)
    let sink = LogSink(descriptor: -1, capacity: 200)
    for index in 0..<10 { sink.write(level: .info, source: "test", message: "line \(index)", metadata: [:]) }
    #expect(sink.droppedLines > 0)
    let metrics = ServerMetrics(
      paths: [],
      sources: ServerMetrics.Sources(
        inFlight: rows.inFlight, bodies: rows.bodies, formatters: rows.formatters, streams: nil, logSink: sink,
        version: "1.2.3"))
    let exposition = try Exposition(String(decoding: metrics.exposition(), as: UTF8.self))
    #expect(exposition.value("inbox_format_log_lines_dropped_total") == Double(sink.droppedLines))
    // `serve` has no event streams to count.
    #expect(exposition.types["inbox_format_preview_event_streams"] == nil)
  }

  /// A preview's open event streams: one while a page listens, none once it goes.
  @Test func openEventStreamsAreCounted() async throws {
    let source = PreviewSource()
    source.update(payload: Array(examplePayload.readableBytesView))
    let configuration = testConfiguration {
      $0.frozenNow = exampleNow
      $0.preview = PreviewConfiguration(
        source: source, locales: [Locale(identifier: "en-US")], fileName: "\"mock.json\"")
    }
    try await withServer(.live, configuration) { client in
      let port = try #require(client.port)
      func openStreams() async throws -> Double? {
        let connection = try RawConnection(port: port, timeout: 10)
        await connection.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = await connection.readToEnd()
        let body = try #require(answer.range(of: "\r\n\r\n")).upperBound
        return try Exposition(String(answer[body...])).value("inbox_format_preview_event_streams")
      }
      #expect(try await openStreams() == 0)
      let events = try EventReader(port: port, path: "/events")
      #expect(try #require(await events.next()).name == "render")
      #expect(try await openStreams() == 1)
      events.goAway()
      // The stream ends once the server sees its connection's input close: asked until then.
      let deadline = ContinuousClock.now + .seconds(20)
      var open = try await openStreams()
      while open != 0, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(50))
        open = try await openStreams()
      }
      #expect(open == 0)
    }
  }

  /// The process, as Prometheus clients customarily give it.
  @Test func theProcessIsDescribed() async throws {
    try await withServer { client in
      let exposition = try Exposition(String(buffer: try await client.execute(uri: "/metrics", method: .get).body))
      let start = try #require(exposition.value("process_start_time_seconds"))
      #expect(start > 1_600_000_000 && start <= Date().timeIntervalSince1970 + 1)
      #expect(try #require(exposition.value("process_resident_memory_bytes")) > 0)
      #expect(try #require(exposition.value("process_cpu_seconds_total")) > 0)
      #expect(try #require(exposition.value("process_open_fds")) > 0)
      #expect(try #require(exposition.value("process_max_fds")) >= exposition.value("process_open_fds")!)
      #expect(exposition.value("inbox_format_build_info", ["version": "unknown"]) == 1)
    }
  }
}
