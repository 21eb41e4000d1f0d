import Foundation
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
package import ServiceLifecycle
import Synchronization

/// The service as an application: routes, middleware and server settings,
/// for `inbox-format serve` and for tests (`app.test(.router)`, `.live`).
///
/// Middleware, outermost first: the access log and the request metrics
/// (they see every answer),
/// for a preview its guard (its headers on every answer; one `Host`, naming
/// it exactly on loopback; no other site's `Origin`), problem details (every error becomes one),
/// the transfer codings (501), the method table (405). The limit on requests in flight and the budget
/// of bodies held are `POST /v1/rows`'s own (``RowsEndpoint``), so that
/// health checks are answered under load.
///
/// `readiness` is what `GET /readyz` answers: ready until a stop begins
/// (``runServer(_:logger:)`` says when).
///
/// Unless ``ServerConfiguration/metrics`` is off, `GET /metrics` answers the
/// application's own metrics (``ServerMetrics``), kept in a registry of its
/// own: two applications in one process count apart.
package func buildApplication(
  _ configuration: ServerConfiguration, logger: Logger, readiness: Readiness = Readiness()
) -> some ApplicationProtocol {
  let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
  // What a 404 names: the endpoints a client calls (a page's assets are
  // fetched by the page, the metrics by a scraper).
  var endpoints = ["POST /v1/rows", "GET /healthz", "GET /readyz", "GET /openapi.yaml"]
  var methods: [String: [HTTPRequest.Method]] = [
    "/v1/rows": [.post], "/healthz": [.get, .head], "/readyz": [.get, .head], "/openapi.yaml": [.get, .head],
  ]
  if configuration.preview != nil {
    endpoints.insert(contentsOf: ["GET /", "GET /events"], at: 0)
    for path in PreviewPage.assets.keys { methods[path] = [.get, .head] }
    // A stream has no end to measure, so no HEAD.
    methods["/events"] = [.get]
  }
  let rows = RowsEndpoint(configuration: configuration, logger: logger)
  let streams = OpenCount()
  var metrics: ServerMetrics?
  if configuration.metrics {
    methods["/metrics"] = [.get, .head]
    metrics = ServerMetrics(
      paths: methods.keys,
      sources: ServerMetrics.Sources(
        inFlight: rows.inFlight, bodies: rows.bodies, formatters: rows.formatters,
        streams: configuration.preview == nil ? nil : streams, logSink: .standardError,
        version: configuration.version))
  }
  router.add(middleware: AccessLogMiddleware(logger: logger, metrics: metrics))
  if configuration.preview != nil {
    router.add(middleware: PreviewGuardMiddleware(boundTo: configuration.host))
  }
  router.add(
    middleware: ProblemMiddleware(logger: logger, endpoints: endpoints, idleTimeout: configuration.idleTimeout))
  router.add(middleware: TransferCodingMiddleware())
  router.add(middleware: MethodCheckMiddleware(allowed: methods))

  router.post("v1/rows") { request, context in try await rows.respond(to: request, context: context) }
  router.get("healthz") { _, _ in
    Response(
      status: .ok, headers: [.contentType: MediaTypes.json, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
  }
  router.get("readyz") { _, _ in
    guard readiness.isReady else {
      throw Problem(
        .serviceUnavailable, detail: "the server is stopping and takes no new work; it still answers for now",
        headers: [.cacheControl: "no-store"])
    }
    return Response(
      status: .ok, headers: [.contentType: MediaTypes.json, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ready\"}\n")))
  }
  router.get("openapi.yaml") { _, _ in
    Response(
      status: .ok, headers: [.contentType: MediaTypes.yaml],
      body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
  }
  if let metrics {
    router.get("metrics") { _, _ in metrics.response() }
  }

  if let preview = configuration.preview {
    let events = PreviewEvents(
      configuration: configuration, preview: preview, names: rows.names, formatters: rows.formatters,
      streams: streams)
    router.get("events") { request, _ in try events.respond(to: request) }
    for path in PreviewPage.assets.keys {
      router.get(RouterPath(path)) { request, _ in PreviewPage.response(for: request.uri.path)! }
    }
  }

  let onListening = configuration.onListening
  let host = configuration.host
  return Application(
    router: router,
    server: .http1(
      configuration: .init(
        additionalChannelHandlers: [
          ConnectionGuard(
            bodyTimeout: TimeAmount(configuration.bodyTimeout), writeTimeout: TimeAmount(configuration.idleTimeout))
        ],
        idleTimeout: TimeAmount(configuration.idleTimeout))),
    configuration: .init(address: .hostname(host, port: configuration.port), serverName: "inbox-format"),
    onServerRunning: { channel in onListening?(host, channel.localAddress?.port ?? configuration.port) },
    logger: logger)
}

/// Runs the service until SIGTERM or SIGINT, then shuts it down gracefully:
/// `GET /readyz` answers 503 at once, every request is still answered for
/// ``ServerConfiguration/drainDelay``, then the server stops accepting
/// connections, answers the requests it accepted, and returns; what is
/// still running ``ServerConfiguration/shutdownGracePeriod`` after the
/// drain is cancelled.
package func runServer(_ configuration: ServerConfiguration, logger: Logger) async throws {
  try await serviceGroup(configuration, logger: logger).run()
}

/// The services of ``runServer(_:logger:)``, stopped by SIGTERM, SIGINT or
/// `triggerGracefulShutdown()`.
///
/// A service group stops its services one by one, the last first: the
/// drain, which on its stop turns `/readyz` to 503 and waits the drain
/// delay, then the application, which stops accepting only then.
package func serviceGroup(_ configuration: ServerConfiguration, logger: Logger) -> ServiceGroup {
  let readiness = Readiness()
  let application = buildApplication(configuration, logger: logger, readiness: readiness)
  let drain = Drain(readiness: readiness, delay: configuration.drainDelay, logger: logger)
  var group = ServiceGroupConfiguration(
    services: [application, drain], gracefulShutdownSignals: [.sigterm, .sigint],
    logger: logger)
  group.maximumGracefulShutdownDuration = configuration.drainDelay + configuration.shutdownGracePeriod
  return ServiceGroup(configuration: group)
}

/// Whether the replica takes new work, as `GET /readyz` answers.
package final class Readiness: Sendable {
  private let draining = Atomic<Bool>(false)

  /// A replica that is ready.
  package init() {}

  /// True until ``drain()``.
  package var isReady: Bool { !draining.load(ordering: .relaxed) }

  /// From now on, `GET /readyz` answers 503.
  package func drain() { draining.store(true, ordering: .relaxed) }
}

/// The service that stops first: it turns readiness off and waits the
/// drain delay, while the application still answers everything, so that a
/// load balancer sees the replica go before it stops accepting.
struct Drain: Service {
  let readiness: Readiness
  let delay: Duration
  let logger: Logger

  func run() async throws {
    // Cancelled (the group's grace ran out, or it failed): nothing to drain.
    try? await gracefulShutdown()
    guard !Task.isCancelled else { return }
    readiness.drain()
    guard delay > .zero else { return }
    logger.notice("stopping: /readyz answers 503; every request is still answered for \(describe(delay))")
    try? await Task.sleep(for: delay)
  }
}
