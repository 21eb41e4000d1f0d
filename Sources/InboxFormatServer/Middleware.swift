import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatSupport
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// The most characters of a request's path that a problem's detail or a
/// log line quotes.
let pathQuoteLimit = 200

/// Answers every error as problem details, whoever threw it: the router's
/// 404, the method table's 405, the handler's 400, 406,
/// 408, 413, 415, 501 and 503, a body's broken framing as 400, and
/// anything unexpected as 500 (logged).
///
/// A request answered without its body being read (an error, or a route
/// that reads none) has its input closed when that body is long or of
/// unknown length, so that the server does not go on reading what nobody
/// wants, and its answer says `Connection: close` (``ConnectionGuard``
/// then closes the connection once it is written). A short one is read and
/// dropped, which keeps the connection.
struct ProblemMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  let logger: Logger
  /// The endpoints a 404 names, as "METHOD /path".
  let endpoints: [String]
  /// How long a body may stop arriving (``ServerConfiguration/idleTimeout``), as a 408 says.
  let idleTimeout: Duration

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      response = try await next(request, context)
    } catch {
      var problem = problem(for: error, request: request)
      problem.requestID = context.requestID
      if error is CancellationError, Task.isCancelled {
        // A cancelled task's answer is refused by the connection's writer:
        // this one goes to the connection past it.
        problem.headers[.xRequestID] = context.requestID
        throw AnsweredOnTheConnection(status: problem.status.code, bytes: problem.write(to: context.channel))
      }
      response = problem.response
    }
    if request.hasBodyNotToDrain && !context.body.isRead {
      context.channel.close(mode: .input, promise: nil)
      response.headers[.connection] = "close"
    }
    return response
  }

  func problem(for error: any Error, request: Request) -> Problem {
    switch error {
    case let problem as Problem:
      return problem
    case let error as HTTPError:
      return Problem(error.status, detail: error.body ?? defaultDetail(error.status, request), headers: error.headers)
    case let error as any HTTPResponseError:
      return Problem(error.status, detail: defaultDetail(error.status, request))
    case let error as HTTPParserError:
      // A body's framing broken partway (a chunk size that is not one):
      // the client's fault, so not worth the error log, and the connection
      // cannot be read further.
      return Problem(
        .badRequest, detail: "the request body's framing is not valid (\(error))",
        headers: [.connection: "close"])
    case is BodyStalledError:
      return Problem(
        .requestTimeout, detail: "the request body stopped arriving for \(describe(idleTimeout))",
        headers: [.connection: "close"])
    case is CancellationError:
      // Shutdown's grace period ran out while this request was still being received.
      return Problem(.serviceUnavailable, detail: "the server is shutting down", headers: [.connection: "close"])
    default:
      let what = "\(request.method) \(quoted(request.uri.path, limit: pathQuoteLimit))"
      logger.error("unhandled error answering \(what): \(quoted(String(describing: error), limit: 500))")
      return Problem(.internalServerError, detail: "the server failed to answer; the failure is logged")
    }
  }

  private func defaultDetail(_ status: HTTPResponse.Status, _ request: Request) -> String {
    switch status {
    case .notFound:
      "nothing at \(quoted(request.uri.path, limit: pathQuoteLimit)); expected \(endpoints.joined(separator: ", ", lastSeparator: " or "))"
    case .contentTooLarge: "the request body is too large"
    default: status.reasonPhrase.lowercased()
    }
  }
}

/// A request answered straight on its connection (``Problem/write(to:)``):
/// nothing more is to be written for it, and the access log says what was.
struct AnsweredOnTheConnection: Error {
  let status: Int
  /// The bytes of its body.
  let bytes: Int
}

/// 501 for a body in a transfer coding other than chunked alone
/// (`Transfer-Encoding: gzip, chunked`): the parser takes its framing from
/// `chunked` and would hand on the body still in the other coding.
struct TransferCodingMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let codings = request.headers.value(.transferEncoding),
      codings.pieces(separatedBy: ",").map({ $0.trimmingOptionalWhitespace.lowercased() }) != ["chunked"]
    {
      throw Problem(
        .notImplemented,
        detail: "Transfer-Encoding \(quoted(codings, limit: 100)) is not supported; expected chunked alone")
    }
    return try await next(request, context)
  }
}

/// 405 with `Allow` for a path that exists with other methods (the router
/// answers 404 for both).
struct MethodCheckMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  /// The methods of each path.
  let allowed: [String: [HTTPRequest.Method]]

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    if let methods = allowed[request.uri.path], !methods.contains(request.method) {
      let allow = methods.map(\.rawValue).joined(separator: ", ")
      throw Problem(
        .methodNotAllowed,
        detail: "\(request.method.rawValue) is not allowed on \(request.uri.path); expected \(allow)",
        headers: [.allow: allow])
    }
    return try await next(request, context)
  }
}

/// Counts requests in flight against a limit: a request of `POST /v1/rows`
/// counts from the moment its body has been read whole until its answer is
/// written whole (or the connection is gone), so that clients still
/// sending their bodies hold no place (``BodyBudget`` bounds those). An
/// answer the connection takes at once counts until it is handed over.
final class InFlightLimiter: Sendable {
  let limit: Int
  private let count = Atomic<Int>(0)
  private let refused = Atomic<Int>(0)

  init(limit: Int) {
    self.limit = limit
  }

  /// Permits held now (for a moment, one more while a request is refused).
  var inUse: Int { count.load(ordering: .relaxed) }

  /// Permits refused since the limiter was made.
  var refusals: Int { refused.load(ordering: .relaxed) }

  /// A permit, or nil when `limit` requests hold one already.
  func acquire() -> Permit? {
    if count.wrappingAdd(1, ordering: .relaxed).newValue > limit {
      count.wrappingSubtract(1, ordering: .relaxed)
      refused.wrappingAdd(1, ordering: .relaxed)
      return nil
    }
    return Permit(self)
  }

  fileprivate func release() {
    count.wrappingSubtract(1, ordering: .relaxed)
  }

  /// One request's place, given back when the permit goes away.
  final class Permit: Sendable {
    private let limiter: InFlightLimiter
    fileprivate init(_ limiter: InFlightLimiter) { self.limiter = limiter }
    deinit { limiter.release() }
  }
}

/// The bytes of request bodies held at once, against a budget: a body
/// counts from its first byte read (its whole declared length, when it has
/// one) until its answer is written whole or dropped, the answer being
/// about its size; for an answer the connection takes at once, until it is
/// handed over.
final class BodyBudget: Sendable {
  let limit: Int
  private let used = Atomic<Int>(0)
  private let refused = Atomic<Int>(0)

  init(limit: Int) {
    self.limit = limit
  }

  /// Bytes held now (for a moment, more while a body is refused).
  var inUse: Int { used.load(ordering: .relaxed) }

  /// Times a share could not grow since the budget was made: each is a
  /// body refused.
  var refusals: Int { refused.load(ordering: .relaxed) }

  /// An empty share of the budget, to grow as a body is read.
  func share() -> Share { Share(self) }

  fileprivate func take(_ bytes: Int) -> Bool {
    if used.wrappingAdd(bytes, ordering: .relaxed).newValue > limit {
      used.wrappingSubtract(bytes, ordering: .relaxed)
      refused.wrappingAdd(1, ordering: .relaxed)
      return false
    }
    return true
  }

  fileprivate func give(_ bytes: Int) {
    used.wrappingSubtract(bytes, ordering: .relaxed)
  }

  /// One body's bytes, given back when the share goes away. Grown by the
  /// task reading the body only, then only kept.
  final class Share: @unchecked Sendable {
    private let budget: BodyBudget
    private(set) var bytes = 0

    fileprivate init(_ budget: BodyBudget) { self.budget = budget }

    /// Grows the share to `total` bytes; false, and unchanged, when the
    /// budget has not that much left.
    func grow(to total: Int) -> Bool {
      guard total > bytes else { return true }
      guard budget.take(total - bytes) else { return false }
      bytes = total
      return true
    }

    deinit { budget.give(bytes) }
  }
}

extension ResponseBody {
  /// The longest body the connection takes at once: NIO's default high
  /// water mark of a connection's write buffer, below which a write to a
  /// connection that takes writes does not wait.
  static let longestTakenAtOnce = 64 << 10

  /// Whether the connection takes this body at once: its length is known
  /// and at most ``longestTakenAtOnce``. Every such body the server makes
  /// is one buffer, which Hummingbird writes with its head in one write (a
  /// body written by a closure goes as a head, then its parts), and is as
  /// good as written once it is handed over: nothing wraps it.
  var isTakenAtOnce: Bool {
    contentLength.map { $0 <= Self.longestTakenAtOnce } ?? false
  }
}

extension Response {
  /// This answer, keeping `value` until its body is written whole or the
  /// answer is dropped unwritten: a request's permit and its body's share.
  /// A body the connection takes at once (``ResponseBody/isTakenAtOnce``)
  /// keeps it until it is handed over, which is then.
  func keeping(_ value: some Sendable) -> Response {
    guard !body.isTakenAtOnce else { return self }
    var response = self
    let body = response.body
    response.body = ResponseBody(contentLength: body.contentLength) { writer in
      try await body.write(writer)
      withExtendedLifetime(value) {}
    }
    return response
  }
}

/// Gives each request its id (``RequestID``), sends it back in the
/// answer's `X-Request-Id`, and writes one line per request once its answer
/// is written: method, path (quoted: nothing from a request reaches the log
/// raw), status, latency and bytes of body in the message, and the same as
/// metadata (`method`, `path`, `status`, `duration_ms`, `bytes`), with
/// `request_id` and, for a valid `traceparent`, `trace_id`.
///
/// ```
/// POST "/v1/rows" 200 0.412 ms 1436 B request_id=5f3a9c01-2a
/// ```
///
/// Where it writes a line it also counts the answer in ``ServerMetrics``
/// (by route, method and status, with its duration): the answer's body is
/// then wrapped once for both, and every request logged is a request counted.
/// An answer to `HEAD`, which has no body, and one whose body the
/// connection takes at once (``ResponseBody/isTakenAtOnce``) are logged and
/// counted once they are made.
struct AccessLogMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  let logger: Logger
  /// Where answers are counted; nil with `--no-metrics`.
  var metrics: ServerMetrics?
  /// Where lines are appended as they are made (``LogSink/writeAccess(_:)``),
  /// when that is where `logger` would write them and how; nil: through
  /// `logger`.
  private let sink: LogSink?

  init(logger: Logger, metrics: ServerMetrics?) {
    self.logger = logger
    self.metrics = metrics
    self.sink = logger.logLevel <= .info ? StandardErrorLogHandler.sink(of: logger) : nil
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let id = RequestID.forRequest(request.headers)
    var context = context
    context.requestID = id
    let path = request.uri.path
    var line = AccessLine(
      logger: logger, sink: sink, method: ServerMetrics.Method(request.method),
      record: AccessRecord(
        method: request.method.rawValue, path: path, requestID: id, traceID: TraceParent.traceID(request.headers)),
      start: start)
    var response: Response
    do {
      response = try await next(request, context)  // ProblemMiddleware, inside, answers every error
    } catch let answered as AnsweredOnTheConnection {
      line.series = metrics?.series(endpointPath: context.endpointPath, path: path)
      line.write(status: answered.status, bytes: answered.bytes)
      throw answered
    }
    response.headers[.xRequestID] = id
    // The route the router took the request to is known by now.
    line.series = metrics?.series(endpointPath: context.endpointPath, path: path)
    let status = response.status.code
    if request.method == .head || response.body.isTakenAtOnce {
      // No body goes out for HEAD, and the router's HEAD of a GET route
      // drops the body this would wrap; a body the connection takes at once
      // goes with its head in one write only if nothing wraps it. Either
      // answer is as good as written.
      line.write(status: status, bytes: request.method == .head ? 0 : response.body.contentLength ?? 0)
      return response
    }
    let body = response.body
    response.body = ResponseBody(contentLength: body.contentLength) { [line] writer in
      var line = line
      let counter = ByteCounter()
      do {
        try await body.write(CountingWriter(parent: writer, counter: counter))
      } catch {
        line.write(status: status, bytes: counter.count, aborted: true)
        throw error
      }
      line.write(status: status, bytes: counter.count)
    }
    return response
  }
}

/// What a request's access line says: the request, then its answer once
/// written. ``message`` and ``metadata`` are the line, whichever way it is
/// written.
struct AccessRecord: Sendable {
  /// `POST`.
  var method: String
  /// The request's path, as it came.
  var path: String
  /// Its `X-Request-Id`, given or made (``RequestID``).
  var requestID: String
  /// The trace a valid `traceparent` names.
  var traceID: String?
  /// The answer's status.
  var status = 0
  /// From the request's head to its answer written whole.
  var elapsed = Milliseconds(.zero)
  /// The bytes of body written.
  var bytes = 0
  /// Whether the client went away before the rest of the body.
  var aborted = false

  /// Whether ``message`` already says the metadata `key` (`method`,
  /// `path`, `status`, `duration_ms`, `bytes`, `aborted`), which a text line leaves out.
  static func isInMessage(_ key: String) -> Bool {
    switch key {
    case "method", "path", "status", "duration_ms", "bytes", "aborted": true
    default: false
    }
  }

  /// `POST "/v1/rows" 200 0.412 ms 1436 B`; `… 200 aborted after 3.250 ms 512 B`.
  var message: String {
    "\(method) \(quoted(path, limit: pathQuoteLimit)) \(status) \(aborted ? "aborted after " : "")\(elapsed) ms \(bytes) B"
  }

  /// What the message says, as values, and the request's id and trace.
  var metadata: Logger.Metadata {
    var metadata = Logger.Metadata(minimumCapacity: 8)
    metadata["method"] = .string(method)
    metadata["path"] = .string(shortened(path, limit: pathQuoteLimit))
    metadata["request_id"] = .string(requestID)
    if let traceID { metadata["trace_id"] = .string(traceID) }
    metadata["status"] = .stringConvertible(status)
    metadata["duration_ms"] = .stringConvertible(elapsed)
    metadata["bytes"] = .stringConvertible(bytes)
    if aborted { metadata["aborted"] = .stringConvertible(true) }
    return metadata
  }

  /// Logs the line through `logger`, at `info`, from this module.
  func log(to logger: Logger) {
    logger.info(Logger.Message(stringLiteral: message), metadata: metadata)
  }
}

/// A request's access line and count, written once its answer is
/// (``AccessLogMiddleware``): its record, and where the line goes.
private struct AccessLine: Sendable {
  let logger: Logger
  /// Where the line is appended as it is made; nil: through `logger`.
  let sink: LogSink?
  let method: ServerMetrics.Method
  var record: AccessRecord
  let start: ContinuousClock.Instant
  /// Where the answer is counted: its route's, once the router has taken
  /// the request; nil with `--no-metrics`.
  var series: RouteSeries? = nil

  /// Counts the answer and writes its line: its status, the bytes of body
  /// written, and whether the client went away before the rest.
  mutating func write(status: Int, bytes: Int, aborted: Bool = false) {
    let duration = ContinuousClock.now - start
    series?.record(method: method, status: status, duration: duration)
    record.status = status
    record.elapsed = Milliseconds(duration)
    record.bytes = bytes
    record.aborted = aborted
    if let sink {
      sink.writeAccess(record)
    } else {
      record.log(to: logger)
    }
  }
}

/// A time taken, in milliseconds with three decimals (`0.412`): a JSON
/// number as it is written.
struct Milliseconds: CustomStringConvertible, Sendable {
  private let microseconds: Int64

  /// `elapsed`, to the microsecond below.
  init(_ elapsed: Duration) {
    microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
  }

  var description: String {
    let fraction = String(microseconds % 1000)
    return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}

/// Bytes of body written so far.
private final class ByteCounter: Sendable {
  private let total = Atomic<Int>(0)
  var count: Int { total.load(ordering: .relaxed) }
  func add(_ bytes: Int) { total.wrappingAdd(bytes, ordering: .relaxed) }
}

/// A body writer that counts what goes through it.
private struct CountingWriter: ResponseBodyWriter {
  var parent: any ResponseBodyWriter
  let counter: ByteCounter

  mutating func write(_ buffer: ByteBuffer) async throws {
    counter.add(buffer.readableBytes)
    try await parent.write(buffer)
  }

  consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
    try await parent.finish(trailingHeaders)
  }
}
