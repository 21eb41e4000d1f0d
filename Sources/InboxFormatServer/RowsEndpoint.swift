import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatSupport
import Logging
import NIOCore

/// `POST /v1/rows`: a payload in, the command's output out.
///
/// What costs nothing is checked before the body is read (its declared
/// length, its media type, the query, `Accept`), so a refused request is
/// never read; the body is then read whole under ``ServerConfiguration/maxBodySize``,
/// ``ServerConfiguration/bodyTimeout`` and the budget of bodies held
/// (``ServerConfiguration/maxBodyMemory``), and, once a place among the
/// requests in flight is free, formatted by a formatter kept for its
/// settings (``InboxFormatterCache``), at the request's instant.
struct RowsEndpoint: Sendable {
  let configuration: ServerConfiguration
  let names = SettingsResolver()
  let formatters: InboxFormatterCache
  let inFlight: InFlightLimiter
  let bodies: BodyBudget
  let logger: Logger

  /// NDJSON output held back until the payload has proved valid, at most:
  /// a payload found invalid within it is a 400; past it the rows stream.
  static let ndjsonHoldBack = 64 << 10
  /// Skipped messages listed in `Inbox-Skipped`, at most; `Inbox-Skipped-Count` counts them all.
  static let mostSkipsListed = 50
  /// The longest `Inbox-Skipped` field written, so that proxies with small
  /// header buffers still pass the answer.
  static let longestSkipList = 8 << 10

  init(configuration: ServerConfiguration, logger: Logger) {
    self.configuration = configuration
    self.formatters = InboxFormatterCache(capacity: configuration.maxCachedFormatters)
    self.inFlight = InFlightLimiter(limit: configuration.maxRequestsInFlight)
    self.bodies = BodyBudget(limit: configuration.maxBodyMemory)
    self.logger = logger
  }

  func respond(to request: Request, context: ServerRequestContext) async throws -> Response {
    if let length = request.headers.value(.contentLength).flatMap({ Int($0) }), length > configuration.maxBodySize {
      throw tooLarge(context)
    }
    guard MediaTypes.isReadable(request.headers.value(.contentType)) else {
      throw Problem(
        .unsupportedMediaType,
        detail: "a body of type \(quoted(request.headers[.contentType] ?? "", limit: 100)) is not read; "
          + "expected application/json or application/x-ndjson (UTF-8)")
    }
    let query = try RowsQuery(request.uri.query, names: names, mappings: configuration.mappings)
    guard let answer = MediaTypes.answer(for: request.headers.value(.accept)) else {
      throw Problem(
        .notAcceptable,
        detail: "Accept \(quoted(request.headers[.accept] ?? "", limit: 100)) allows no answer given here; "
          + "expected application/json or application/x-ndjson")
    }
    var settings = query.settings
    if settings.locale == nil, let header = request.headers.value(.acceptLanguage) {
      settings.locale = LanguageNegotiation.locale(for: header) { try? names.locale($0) }
    }
    // A request that names its instant has an answer that never changes.
    let pinned = settings.now != nil
    settings.now = settings.now ?? configuration.frozenNow ?? configuration.clock()
    let formatContext = settings.applied(to: configuration.defaults)
    let now = formatContext.now
    let formatter = formatters.formatter(
      for: formatContext,
      mapping: (query.mapping ?? configuration.mapping).viewer(query.viewer ?? configuration.mapping.viewer))
    let (payload, share) = try await readBody(of: request, context: context)
    guard let permit = inFlight.acquire() else {
      throw Problem(
        .serviceUnavailable,
        detail: "the server is answering \(inFlight.limit) requests already; try again in a second",
        headers: [.retryAfter: "1"])
    }

    var headers: HTTPFields = [
      .contentLanguage: formatContext.locale.identifier(.bcp47),
      .vary: "Accept, Accept-Language",
    ]
    let response: Response
    switch answer {
    case .json:
      response = try json(
        payload, formatter: formatter, skipInvalid: query.skipInvalid, now: now, pinned: pinned,
        ifNoneMatch: request.headers.value(.ifNoneMatch), headers: &headers)
    case .ndjson(let contentType):
      headers[.contentType] = contentType
      headers[.cacheControl] =
        pinned ? Caching.freshness(now: now, validUntil: nil, pinned: true).cacheControl : "no-cache"
      response = try await ndjson(
        payload, formatter: formatter.layout(.ndjson), skipInvalid: query.skipInvalid, headers: headers)
    }
    return response.keeping((permit, share))
  }

  // MARK: Answers

  /// The rows as a JSON array, buffered, with validators and freshness.
  private func json(
    _ payload: ByteBuffer, formatter: InboxFormatter, skipInvalid: Bool, now: Date, pinned: Bool,
    ifNoneMatch: String?, headers: inout HTTPFields
  ) throws -> Response {
    var output = ByteBuffer()
    output.reserveCapacity(payload.readableBytes + 256)
    let skips = SkipList()
    let skip: ((InboxFormatError) -> Void)? = skipInvalid ? { skips.add($0) } : nil
    let validUntil: Date?
    do {
      validUntil = try payload.withUnsafeReadableBytes { raw in
        try formatter.format(bytes: raw.bindMemory(to: UInt8.self), skipInvalid: skip) { chunk in
          output.writeBytes(chunk)
        }
      }
    } catch let error as InboxFormatError {
      throw Problem(payload: error)
    }
    let language = headers[.contentLanguage] ?? ""
    var hasher = EntityTagHasher()
    output.withUnsafeReadableBytes { hasher.add($0) }
    let tag = hasher.tag(contentType: MediaTypes.json, language: language)
    let freshness = Caching.freshness(now: now, validUntil: validUntil, pinned: pinned)
    headers[.eTag] = tag
    headers[.cacheControl] = freshness.cacheControl
    headers[.expires] = Caching.httpDate(configuration.clock().addingTimeInterval(Double(freshness.seconds)))
    skips.describe(in: &headers)
    if let ifNoneMatch, Caching.matches(ifNoneMatch: ifNoneMatch, tag: tag) {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentType] = MediaTypes.json
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: output))
  }
}

/// `10 seconds`, `1.5 seconds`.
func describe(_ duration: Duration) -> String {
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  return "\(text) second\(seconds == 1 ? "" : "s")"
}
