import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import NIOCore
import Prometheus
import Synchronization

/// `GET /metrics`: the service's counts, in the Prometheus text exposition
/// format (0.0.4), for a scrape.
///
/// Only counts, sizes and times: no payload, no query, no header, no raw
/// path. Every label's values are a bounded set: `route` is a route the
/// service has (`/v1/rows`), or `unmatched` for any other path; `method` one
/// of eight (`other` for the rest); `status` a number.
///
/// The collectors live in a `PrometheusCollectorRegistry` this value owns,
/// one per application, and none in swift-metrics' global `MetricsSystem`:
/// that is bootstrapped once per process, so the servers a test process
/// starts by the dozen would share and mix their counts. For the same
/// reason Hummingbird's `MetricsMiddleware`, which reads it, is not used:
/// ``AccessLogMiddleware`` counts each answer where it writes its line, so
/// that an answer's body is wrapped once, not twice.
///
/// What a request costs: one look-up under a lock held for no await, an
/// atomic add and a histogram's record. Whatever is a reading (requests in
/// flight, bytes of bodies held, the formatter cache, dropped log lines, the
/// process) is read when the metrics are asked for, not kept up per request.
final class ServerMetrics: Sendable {
  /// What a scrape reads besides the requests counted.
  struct Sources: Sendable {
    /// `POST /v1/rows`'s limit on requests in flight.
    var inFlight: InFlightLimiter
    /// Its budget of bodies held.
    var bodies: BodyBudget
    /// The formatters kept.
    var formatters: InboxFormatterCache
    /// The preview's open event streams; nil for `serve`.
    var streams: OpenCount?
    /// Where the log lines go, and are dropped when it does not keep up.
    var logSink: LogSink
    /// The command's version, for `inbox_format_build_info`.
    var version: String
  }

  /// The label values of a request's method: these seven, or `other`.
  enum Method: Int, Sendable, CaseIterable {
    case get, head, post, put, delete, patch, options, other

    init(_ method: HTTPRequest.Method) {
      switch method {
      case .get: self = .get
      case .head: self = .head
      case .post: self = .post
      case .put: self = .put
      case .delete: self = .delete
      case .patch: self = .patch
      case .options: self = .options
      default: self = .other
      }
    }

    var label: String {
      switch self {
      case .other: "other"
      default: ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"][rawValue]
      }
    }
  }

  /// The `route` of a path no route has.
  static let unmatchedRoute = "unmatched"
  /// The media type of the exposition.
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"
  /// The upper bounds of the duration histogram's buckets: the service
  /// answers a page in a millisecond or two; a long answer streams for seconds.
  static let durationBuckets: [Duration] = [
    .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5), .milliseconds(10),
    .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
    .seconds(1), .microseconds(2_500_000), .seconds(5), .seconds(10),
  ]

  private let registry = PrometheusCollectorRegistry()
  private let sources: Sources
  /// Each route's series, by its path as the router names it.
  private let routes: [String: RouteSeries]
  private let unmatched: RouteSeries
  private let readings: Readings
  /// The counts last copied into the counters that mirror them, held
  /// while a scrape copies and writes: two scrapes at once take turns.
  private let mirrored = Mutex(Mirrored())

  /// The metrics of a server whose routes are `paths` (`/v1/rows`, `/healthz`, …).
  init(paths: some Sequence<String>, sources: Sources) {
    self.sources = sources
    var routes: [String: RouteSeries] = [:]
    for path in paths { routes[path] = RouteSeries(route: path, registry: registry) }
    self.routes = routes
    unmatched = RouteSeries(route: Self.unmatchedRoute, registry: registry)
    readings = Readings(registry: registry, preview: sources.streams != nil, version: sources.version)
  }

  /// The series of a request the router took to `endpointPath` (nil or
  /// `NotFound` when it found no route), for `path`: that route's, the
  /// path's when it is a route's own (a method it does not take), else
  /// ``unmatchedRoute``'s.
  func series(endpointPath: String?, path: String) -> RouteSeries {
    if let endpointPath, let series = routes[endpointPath] { return series }
    return routes[path] ?? unmatched
  }

  /// The exposition: every count as of now.
  func exposition() -> [UInt8] {
    mirrored.withLock { last in
      readings.update(from: sources, last: &last)
      return registry.emitToBuffer()
    }
  }

  /// The answer of `GET /metrics`: the exposition, never kept by a cache.
  func response() -> Response {
    Response(
      status: .ok, headers: [.contentType: Self.contentType, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: exposition())))
  }
}

/// One route's series: a counter per method and status, made the first
/// time that pair is answered, and the histogram of its durations.
final class RouteSeries: Sendable {
  let route: String
  private let registry: PrometheusCollectorRegistry
  private let duration: DurationHistogram
  /// By method and status: `method << 16 | status`.
  private let requests = Mutex<[Int: Prometheus.Counter]>([:])

  init(route: String, registry: PrometheusCollectorRegistry) {
    self.route = route
    self.registry = registry
    duration = registry.makeDurationHistogram(
      descriptor: MetricNameDescriptor(
        namespace: "inbox_format", metricName: "http_request_duration", unitName: "seconds",
        helpText: "Time from a request's head to its answer written whole (handed over, up to 64 KiB), by route."),
      labels: [("route", route)], buckets: ServerMetrics.durationBuckets)
  }

  /// Counts one answer of `status` to `method`, which took `elapsed`.
  func record(method: ServerMetrics.Method, status: Int, duration elapsed: Duration) {
    let key = method.rawValue << 16 | (status & 0xFFFF)
    let counter = requests.withLock { counters in
      if let counter = counters[key] { return counter }
      let counter = registry.makeCounter(
        descriptor: MetricNameDescriptor(
          namespace: "inbox_format", metricName: "http_requests", unitName: "total",
          helpText: "Requests answered, by route, method and status, counted when the answer is written."),
        labels: [("route", route), ("method", method.label), ("status", String(status))])
      counters[key] = counter
      return counter
    }
    counter.increment()
    duration.record(elapsed)
  }
}

/// A number of things open at once: the preview's event streams.
final class OpenCount: Sendable {
  private let value = Atomic<Int>(0)

  init() {}

  /// How many are open now.
  var count: Int { value.load(ordering: .relaxed) }

  /// One more is open.
  func open() { value.wrappingAdd(1, ordering: .relaxed) }

  /// One fewer is open.
  func close() { value.wrappingSubtract(1, ordering: .relaxed) }
}

/// The counts last copied into mirroring counters.
private struct Mirrored {
  var inFlightRefusals = 0
  var budgetRefusals = 0
  var hits = 0
  var misses = 0
  var evictions = 0
  var droppedLines = 0
  var cpuSeconds = 0.0
}

/// The collectors a scrape sets from what it reads. The library's and the
/// limits' counts only grow, so each counter here mirrors one by adding
/// what it grew by since the last scrape.
private struct Readings: Sendable {
  let inFlight: Gauge
  let inFlightLimit: Gauge
  let inFlightRefusals: Prometheus.Counter
  let bodyBytes: Gauge
  let bodyLimit: Gauge
  let budgetRefusals: Prometheus.Counter
  let hits: Prometheus.Counter
  let misses: Prometheus.Counter
  let evictions: Prometheus.Counter
  let entries: Gauge
  let capacity: Gauge
  let streams: Gauge?
  let droppedLines: Prometheus.Counter
  let cpuSeconds: Prometheus.Counter
  let residentMemory: Gauge
  let virtualMemory: Gauge
  let openFiles: Gauge
  let maxFiles: Gauge

  init(registry: PrometheusCollectorRegistry, preview: Bool, version: String) {
    func name(_ name: String, unit: String = "", namespace: String = "inbox_format", _ help: String)
      -> MetricNameDescriptor
    {
      MetricNameDescriptor(namespace: namespace, metricName: name, unitName: unit, helpText: help)
    }
    let refusals = name(
      "limit_refusals", unit: "total", "Requests of POST /v1/rows answered 503 by a limit, by the option that sets it.")
    inFlight = registry.makeGauge(
      descriptor: name(
        "requests_in_flight", "POST /v1/rows requests holding a place, from their body read to their answer written."))
    inFlightLimit = registry.makeGauge(
      descriptor: name("requests_in_flight_limit", "The most requests in flight (--max-requests-in-flight)."))
    inFlightRefusals = registry.makeCounter(descriptor: refusals, labels: [("limit", "max_requests_in_flight")])
    bodyBytes = registry.makeGauge(
      descriptor: name(
        "body_memory", unit: "bytes", "Bytes of request bodies held, from their first byte to their answer written."))
    bodyLimit = registry.makeGauge(
      descriptor: name(
        "body_memory_limit", unit: "bytes", "The most bytes of request bodies held (--max-body-memory)."))
    budgetRefusals = registry.makeCounter(descriptor: refusals, labels: [("limit", "max_body_memory")])
    hits = registry.makeCounter(
      descriptor: name("formatter_cache_hits", unit: "total", "Formatters asked for that were kept."))
    misses = registry.makeCounter(
      descriptor: name(
        "formatter_cache_misses", unit: "total", "Formatters asked for that were not kept, and were made."))
    evictions = registry.makeCounter(
      descriptor: name("formatter_cache_evictions", unit: "total", "Formatters dropped to make room for another."))
    entries = registry.makeGauge(descriptor: name("formatter_cache_entries", "Formatters kept."))
    capacity = registry.makeGauge(descriptor: name("formatter_cache_capacity", "The most formatters kept."))
    streams =
      preview ? registry.makeGauge(descriptor: name("preview_event_streams", "GET /events streams open.")) : nil
    droppedLines = registry.makeCounter(
      descriptor: name("log_lines_dropped", unit: "total", "Log lines dropped because standard error did not keep up."))
    registry.makeGauge(
      descriptor: name("build_info", "The command's version, as a label; the value is always 1."),
      labels: [("version", version)]
    ).set(to: 1)
    cpuSeconds = registry.makeCounter(
      descriptor: name(
        "cpu", unit: "seconds_total", namespace: "process", "User and system CPU time spent, in seconds."))
    residentMemory = registry.makeGauge(
      descriptor: name("resident_memory", unit: "bytes", namespace: "process", "Resident memory size, in bytes."))
    virtualMemory = registry.makeGauge(
      descriptor: name("virtual_memory", unit: "bytes", namespace: "process", "Virtual memory size, in bytes."))
    openFiles = registry.makeGauge(descriptor: name("open_fds", namespace: "process", "Open file descriptors."))
    maxFiles = registry.makeGauge(
      descriptor: name("max_fds", namespace: "process", "The most open file descriptors (the soft limit)."))
    if let start = ProcessStatistics.startTime {
      registry.makeGauge(
        descriptor: name(
          "start_time", unit: "seconds", namespace: "process",
          "Start time of the process since the Unix epoch, in seconds.")
      ).set(to: start)
    }
  }

  /// Sets every collector from `sources`; `last` holds what the mirroring
  /// counters were last brought to.
  func update(from sources: ServerMetrics.Sources, last: inout Mirrored) {
    func mirror(_ counter: Prometheus.Counter, _ value: Int, _ last: inout Int) {
      if value > last { counter.increment(by: Int64(value - last)) }
      last = max(last, value)
    }
    inFlight.set(to: Double(min(sources.inFlight.inUse, sources.inFlight.limit)))
    inFlightLimit.set(to: Double(sources.inFlight.limit))
    mirror(inFlightRefusals, sources.inFlight.refusals, &last.inFlightRefusals)
    bodyBytes.set(to: Double(min(sources.bodies.inUse, sources.bodies.limit)))
    bodyLimit.set(to: Double(sources.bodies.limit))
    mirror(budgetRefusals, sources.bodies.refusals, &last.budgetRefusals)
    let cache = sources.formatters.statistics
    mirror(hits, cache.hits, &last.hits)
    mirror(misses, cache.misses, &last.misses)
    mirror(evictions, cache.evictions, &last.evictions)
    entries.set(to: Double(cache.count))
    capacity.set(to: Double(cache.capacity))
    if let streams, let open = sources.streams { streams.set(to: Double(open.count)) }
    mirror(droppedLines, sources.logSink.droppedLines, &last.droppedLines)
    if let process = ProcessStatistics.read() {
      if process.cpuSeconds > last.cpuSeconds {
        cpuSeconds.increment(by: process.cpuSeconds - last.cpuSeconds)
        last.cpuSeconds = process.cpuSeconds
      }
      residentMemory.set(to: Double(process.residentBytes))
      virtualMemory.set(to: Double(process.virtualBytes))
      openFiles.set(to: Double(process.openFiles))
      maxFiles.set(to: Double(process.maxFiles))
    }
  }
}
