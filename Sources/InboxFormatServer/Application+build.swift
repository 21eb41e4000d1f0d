import Foundation
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
import ServiceLifecycle

/// The service as an application: routes, middleware and server settings,
/// for `inbox-format serve` and for tests (`app.test(.router)`, `.live`).
///
/// Middleware, outermost first: the access log (it sees every answer),
/// for a preview its guard (its headers on every answer, and only loopback
/// names asked on loopback), problem details (every error becomes one),
/// the transfer codings (501), the method table (405). The limit on requests in flight and the budget
/// of bodies held are `POST /v1/rows`'s own (``RowsEndpoint``), so that
/// health checks are answered under load.
package func buildApplication(_ configuration: ServerConfiguration, logger: Logger) -> some ApplicationProtocol {
  let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
  router.add(middleware: AccessLogMiddleware(logger: logger))
  if configuration.preview != nil {
    router.add(middleware: PreviewGuardMiddleware(listensOnLoopback: PreviewGuardMiddleware.isLoopback(address: configuration.host)))
  }
  // What a 404 names: the endpoints a client calls (a page's assets are
  // fetched by the page).
  var endpoints = ["POST /v1/rows", "GET /healthz", "GET /openapi.yaml"]
  var methods: [String: [HTTPRequest.Method]] = [
    "/v1/rows": [.post], "/healthz": [.get, .head], "/openapi.yaml": [.get, .head],
  ]
  if configuration.preview != nil {
    endpoints.insert(contentsOf: ["GET /", "GET /events"], at: 0)
    for path in PreviewPage.assets.keys { methods[path] = [.get, .head] }
    // A stream has no end to measure, so no HEAD.
    methods["/events"] = [.get]
  }
  router.add(middleware: ProblemMiddleware(logger: logger, endpoints: endpoints, idleTimeout: configuration.idleTimeout))
  router.add(middleware: TransferCodingMiddleware())
  router.add(middleware: MethodCheckMiddleware(allowed: methods))

  let rows = RowsEndpoint(configuration: configuration, logger: logger)
  router.post("v1/rows") { request, context in try await rows.respond(to: request, context: context) }
  router.get("healthz") { _, _ in
    Response(
      status: .ok, headers: [.contentType: MediaTypes.json, .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
  }
  router.get("openapi.yaml") { _, _ in
    Response(
      status: .ok, headers: [.contentType: MediaTypes.yaml],
      body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
  }

  if let preview = configuration.preview {
    let events = PreviewEvents(
      configuration: configuration, preview: preview, settings: rows.settings, formatters: rows.formatters)
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
        additionalChannelHandlers: [ConnectionGuard(bodyTimeout: TimeAmount(configuration.bodyTimeout))],
        idleTimeout: TimeAmount(configuration.idleTimeout))),
    configuration: .init(address: .hostname(host, port: configuration.port), serverName: "inbox-format"),
    onServerRunning: { channel in onListening?(host, channel.localAddress?.port ?? configuration.port) },
    logger: logger)
}

/// Runs the service until SIGTERM or SIGINT, then shuts it down gracefully:
/// it stops accepting connections, answers the requests it accepted, and
/// returns; what is still running after
/// ``ServerConfiguration/shutdownGracePeriod`` is cancelled.
package func runServer(_ configuration: ServerConfiguration, logger: Logger) async throws {
  let application = buildApplication(configuration, logger: logger)
  var group = ServiceGroupConfiguration(
    services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
  group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
  try await ServiceGroup(configuration: group).run()
}
