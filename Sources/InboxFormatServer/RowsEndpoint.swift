import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatOptions
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
  /// What queries and `Accept-Language`s read to, by their text
  /// (``resolve(query:acceptLanguage:)``).
  private let resolved = BoundedCache<ResolvedKey, Resolved>(capacity: 256)
  private let expiresDates = HTTPDates()

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
    let declared = request.headers.value(.contentLength).flatMap { Int($0) }
    if let declared, declared > configuration.maxBodySize {
      throw tooLarge(context)
    }
    guard MediaTypes.isReadable(request.headers.value(.contentType)) else {
      throw Problem(
        .unsupportedMediaType,
        detail: "a body of type \(quoted(request.headers.value(.contentType) ?? "", limit: 100)) is not read; "
          + "expected application/json or application/x-ndjson (UTF-8)")
    }
    let (query, applied) = try resolve(
      query: request.uri.query, acceptLanguage: request.headers.value(.acceptLanguage))
    guard let answer = MediaTypes.answer(for: request.headers.value(.accept)) else {
      throw Problem(
        .notAcceptable,
        detail: "Accept \(quoted(request.headers.value(.accept) ?? "", limit: 100)) allows no answer given here; "
          + "expected application/json or application/x-ndjson")
    }
    // A request that names its instant has an answer that never changes.
    let pinned = query.settings.now != nil
    let now = query.settings.now ?? configuration.frozenNow ?? configuration.clock()
    let formatContext = applied.now(now)
    let formatter = formatters.formatter(
      for: formatContext,
      mapping: (query.mapping ?? configuration.mapping).viewer(query.viewer ?? configuration.mapping.viewer))
    let (payload, share) = try await readBody(of: request, declared: declared, context: context)
    guard let permit = inFlight.acquire() else {
      throw Problem(
        .serviceUnavailable,
        detail: "the server is answering \(inFlight.limit) requests already; try again in a second",
        headers: [.retryAfter: "1"])
    }

    let language = formatContext.locale.identifier(.bcp47)
    var headers: HTTPFields = [
      .contentLanguage: language,
      .vary: "Accept, Accept-Language",
    ]
    headers.reserveCapacity(10)
    let response: Response
    switch answer {
    case .json:
      response = try json(
        payload, formatter: formatter, skipInvalid: query.skipInvalid, now: now, pinned: pinned, language: language,
        ifNoneMatch: request.headers.value(.ifNoneMatch), headers: &headers)
    case .ndjson(let contentType):
      headers[.contentType] = contentType
      headers[.cacheControl] =
        pinned ? Caching.freshness(now: now, validUntil: nil, pinned: true).cacheControl : "no-cache"
      response = try await ndjson(
        payload, formatter: formatter.layout(.ndjson), skipInvalid: query.skipInvalid, contentType: contentType,
        language: language, headers: headers)
    }
    return response.keeping((permit, share))
  }

  // MARK: Answers

  /// The rows as a JSON array, buffered, with validators and freshness.
  private func json(
    _ payload: ByteBuffer, formatter: InboxFormatter, skipInvalid: Bool, now: Date, pinned: Bool, language: String,
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
    var hasher = EntityTagHasher()
    output.withUnsafeReadableBytes { hasher.add($0) }
    let tag = hasher.tag(contentType: MediaTypes.json, language: language)
    let freshness = Caching.freshness(now: now, validUntil: validUntil, pinned: pinned)
    // None of these is there yet: appended, not looked for.
    headers.append(HTTPField(name: .eTag, value: tag))
    headers.append(HTTPField(name: .cacheControl, value: freshness.cacheControl))
    headers.append(HTTPField(name: .expires, value: expiresDate(in: freshness.seconds)))
    skips.describe(in: &headers)
    if let ifNoneMatch, Caching.matches(ifNoneMatch: ifNoneMatch, tag: tag) {
      return Response(status: .notModified, headers: headers)
    }
    headers.append(HTTPField(name: .contentType, value: MediaTypes.json))
    return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: output))
  }
}

extension RowsEndpoint {
  /// A request's query, and its settings, with the locale its
  /// `Accept-Language` negotiates when the query names none, applied to the
  /// server's (``FormattingSettings/applied(to:)``): a context at an
  /// instant each request replaces with its own.
  fileprivate typealias Resolved = (query: RowsQuery, context: FormattingContext)

  fileprivate struct ResolvedKey: Hashable, Sendable {
    let query: String?
    let acceptLanguage: String?
  }

  /// The longest query and `Accept-Language`, together, whose reading is kept.
  static let longestResolvedKept = 1024

  /// The query read, and its settings with the locale `Accept-Language`
  /// negotiates when the query names none, applied: a 400
  /// ``Problem`` for a query that cannot be read. Kept by their text when
  /// short, since clients send the same few again and again, and reading
  /// them (percent-decoding, names looked up, a language negotiated, a
  /// locale's calendar) costs a request more than the look-up. The instant
  /// is not in what is kept: each request takes its own.
  fileprivate func resolve(query text: String?, acceptLanguage: String?) throws(Problem) -> Resolved {
    let read = { () throws(Problem) -> Resolved in
      let query = try RowsQuery(text, names: names, mappings: configuration.mappings)
      var settings = query.settings
      if settings.locale == nil, let acceptLanguage {
        settings.locale = LanguageNegotiation.locale(for: acceptLanguage) { try? names.locale($0) }
      }
      return (query, settings.applied(to: configuration.defaults))
    }
    guard (text?.utf8.count ?? 0) + (acceptLanguage?.utf8.count ?? 0) <= Self.longestResolvedKept else {
      return try read()
    }
    return try resolved.value(for: ResolvedKey(query: text, acceptLanguage: acceptLanguage), make: read)
  }

  /// `Expires` for an answer fresh `seconds` from now.
  fileprivate func expiresDate(in seconds: Int) -> String {
    expiresDates.text(configuration.clock().addingTimeInterval(Double(seconds)))
  }
}

/// `10 seconds`, `1.5 seconds`.
func describe(_ duration: Duration) -> String {
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  return "\(text) second\(seconds == 1 ? "" : "s")"
}
