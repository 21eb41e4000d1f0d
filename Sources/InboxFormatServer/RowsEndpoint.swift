import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import Logging
import NIOCore
import Synchronization

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
  let settings = SettingsResolver()
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
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > configuration.maxBodySize {
      throw tooLarge(context)
    }
    guard MediaTypes.isReadable(request.headers[.contentType]) else {
      throw Problem(
        .unsupportedMediaType,
        detail: "a body of type \(quoted(request.headers[.contentType] ?? "", limit: 100)) is not read; "
          + "expected application/json or application/x-ndjson (UTF-8)")
    }
    let query = try RowsQuery(request.uri.query, settings: settings, mappings: configuration.mappings)
    guard let answer = MediaTypes.answer(for: request.headers[.accept]) else {
      throw Problem(
        .notAcceptable,
        detail: "Accept \(quoted(request.headers[.accept] ?? "", limit: 100)) allows no answer given here; "
          + "expected application/json or application/x-ndjson")
    }
    let defaults = configuration.defaults
    let locale =
      query.locale
      ?? request.headers[.acceptLanguage].flatMap { header in
        LanguageNegotiation.locale(for: header) { try? settings.locale($0) }
      } ?? defaults.locale
    let timeZone = query.timeZone ?? defaults.timeZone
    let hourCycle = query.hourCycle ?? defaults.hourCycle
    let previewLength = query.previewLength ?? defaults.previewLength
    let now = query.now ?? defaults.now ?? configuration.clock()
    let formatter = formatters.formatter(
      for: FormattingContext(
        now: now, locale: locale, timeZone: timeZone, hourCycle: hourCycle, previewLength: previewLength,
        fields: query.fields ?? defaults.fields, dateStyle: query.dateStyle ?? defaults.dateStyle,
        badgeLimit: query.badgeLimit ?? defaults.badgeLimit),
      mapping: (query.mapping ?? configuration.mapping).viewer(query.viewer ?? configuration.mapping.viewer))
    let (payload, share) = try await readBody(of: request, context: context)
    guard let permit = inFlight.acquire() else {
      throw Problem(
        .serviceUnavailable,
        detail: "the server is answering \(inFlight.limit) requests already; try again in a second",
        headers: [.retryAfter: "1"])
    }

    var headers: HTTPFields = [
      .contentLanguage: locale.identifier(.bcp47),
      .vary: "Accept, Accept-Language",
    ]
    let response: Response
    switch answer {
    case .json:
      response = try json(
        payload, formatter: formatter, skipInvalid: query.skipInvalid, now: now, pinned: query.now != nil,
        ifNoneMatch: request.headers[.ifNoneMatch], headers: &headers)
    case .ndjson(let contentType):
      headers[.contentType] = contentType
      headers[.cacheControl] =
        query.now != nil ? Caching.freshness(now: now, staleAt: nil, pinned: true).cacheControl : "no-cache"
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
    let staleAt: Date?
    do {
      staleAt = try payload.withUnsafeReadableBytes { raw in
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
    let freshness = Caching.freshness(now: now, staleAt: staleAt, pinned: pinned)
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

  /// The rows as NDJSON, streamed as they are made once the payload has
  /// proved valid or ``ndjsonHoldBack`` bytes are ready; the validator, the
  /// instant the first label goes stale and the skipped messages follow as
  /// trailers.
  private func ndjson(
    _ payload: ByteBuffer, formatter: InboxFormatter, skipInvalid: Bool, headers: HTTPFields
  ) async throws -> Response {
    let (events, continuation) = AsyncStream<FormatEvent>.makeStream()
    let skips = SkipList()
    // Off the server's threads: formatting blocks its thread while other
    // cores make rows, and this task is free to hand them on meanwhile.
    DispatchQueue.global().async {
      let skip: ((InboxFormatError) -> Void)? = skipInvalid ? { skips.add($0) } : nil
      do {
        let staleAt = try payload.withUnsafeReadableBytes { raw in
          try formatter.format(bytes: raw.bindMemory(to: UInt8.self), skipInvalid: skip) { chunk in
            continuation.yield(.chunk(chunk))
          }
        }
        continuation.yield(.finished(staleAt: staleAt))
      } catch {
        continuation.yield(.failed(error as? InboxFormatError ?? .emptyInput))
      }
      continuation.finish()
    }
    let rows = FormatEvents(events)
    var held: [[UInt8]] = []
    var heldCount = 0
    var outcome: FormatEvent?
    while heldCount < Self.ndjsonHoldBack, outcome == nil, let event = await rows.next() {
      if case .chunk(let chunk) = event {
        held.append(chunk)
        heldCount += chunk.count
      } else {
        outcome = event
      }
    }
    if case .failed(let error) = outcome { throw Problem(payload: error) }

    var headers = headers
    headers[.trailer] = "ETag, Inbox-Stale-At, Inbox-Skipped-Count, Inbox-Skipped"
    let language = headers[.contentLanguage] ?? ""
    let contentType = headers[.contentType] ?? MediaTypes.ndjson
    let logger = self.logger
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { [held, outcome] writer in
        var hasher = EntityTagHasher()
        for chunk in held {
          hasher.add(chunk)
          try await writer.write(ByteBuffer(bytes: chunk))
        }
        var outcome = outcome
        while outcome == nil, let event = await rows.next() {
          if case .chunk(let chunk) = event {
            hasher.add(chunk)
            try await writer.write(ByteBuffer(bytes: chunk))
          } else {
            outcome = event
          }
        }
        guard case .finished(let staleAt) = outcome else {
          // The head is sent: the answer can only end short, without its
          // last chunk, so that no client takes it for a whole one.
          let reason = if case .failed(let error) = outcome { "\(error)" } else { "formatting stopped" }
          logger.notice("an NDJSON answer ended short: \(reason)")
          throw StreamedPayloadError()
        }
        var trailers: HTTPFields = [.eTag: hasher.tag(contentType: contentType, language: language)]
        if let staleAt { trailers[.inboxStaleAt] = staleAt.utcTextRoundedDown }
        skips.describe(in: &trailers)
        try await writer.finish(trailers)
      })
  }

  // MARK: Parts

  /// The body, read whole, and its share of the budget of bodies held: 413
  /// past the limit, 408 past the deadline and 503 past the budget, all
  /// without reading further. A declared length is taken from the budget
  /// before anything is read; a chunked body's bytes as they come.
  private func readBody(
    of request: Request, context: ServerRequestContext
  ) async throws -> (ByteBuffer, BodyBudget.Share) {
    let (limit, timeout) = (configuration.maxBodySize, configuration.bodyTimeout)
    let share = bodies.share()
    let declared = request.headers[.contentLength].flatMap { Int($0) }
    var buffer = ByteBuffer()
    if let declared {
      guard share.grow(to: declared) else { throw overBudget(context) }
      buffer.reserveCapacity(declared)
    }
    let channel = context.channel
    // A timer on the connection's own event loop, not a task racing the
    // read: when it fires, it closes the input, which ends the body early.
    let deadline = BodyDeadline()
    let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
      deadline.pass()
      channel.close(mode: .input, promise: nil)
    }
    defer { timer.cancel() }
    do {
      for try await part in request.body {
        guard buffer.readableBytes + part.readableBytes <= limit else { throw tooLarge(context) }
        buffer.writeImmutableBuffer(part)
        guard share.grow(to: buffer.readableBytes) else { throw overBudget(context) }
      }
    } catch  where deadline.hasPassed {
      throw timedOut(timeout)
    } catch  where Task.isCancelled {
      // Shutdown's grace period ran out while the body was coming: a 503
      // (``ProblemMiddleware``), not whatever the cut-off body reads as.
      throw CancellationError()
    }
    if deadline.hasPassed { throw timedOut(timeout) }
    if Task.isCancelled { throw CancellationError() }
    context.body.markRead()
    return (buffer, share)
  }

  private func overBudget(_ context: ServerRequestContext) -> Problem {
    Problem(
      .serviceUnavailable,
      detail: "the server holds \(configuration.maxBodyMemory) bytes of request bodies at most, "
        + "and has not room for this one now; try again in a second",
      headers: [.retryAfter: "1"])
  }

  private func timedOut(_ timeout: Duration) -> Problem {
    Problem(
      .requestTimeout, detail: "the request body did not arrive whole within \(describe(timeout))",
      headers: [.connection: "close"])
  }

  private func tooLarge(_ context: ServerRequestContext) -> Problem {
    context.channel.close(mode: .input, promise: nil)
    return Problem(
      .contentTooLarge, detail: "the request body is larger than \(configuration.maxBodySize) bytes, the most read",
      headers: [.connection: "close"])
  }

}

/// What formatting on another thread hands to the answer.
enum FormatEvent: Sendable {
  case chunk([UInt8])
  case finished(staleAt: Date?)
  case failed(InboxFormatError)
}

/// The events of one formatting, read first by the handler, then by the
/// answer's body: one reader at a time, never two at once.
private final class FormatEvents: @unchecked Sendable {
  private var iterator: AsyncStream<FormatEvent>.Iterator

  init(_ events: AsyncStream<FormatEvent>) {
    iterator = events.makeAsyncIterator()
  }

  func next() async -> FormatEvent? {
    await iterator.next()
  }
}

/// The messages `skipInvalid=true` left out, as the command words them.
private final class SkipList: Sendable {
  private let state = Mutex<(count: Int, listed: [String])>((0, []))

  func add(_ problem: InboxFormatError) {
    state.withLock { state in
      state.count += 1
      if state.listed.count < RowsEndpoint.mostSkipsListed { state.listed.append("\(problem)") }
    }
  }

  /// `Inbox-Skipped-Count` and `Inbox-Skipped` when anything was left out.
  func describe(in fields: inout HTTPFields) {
    let (count, listed) = state.withLock { $0 }
    guard count > 0 else { return }
    fields[.inboxSkippedCount] = String(count)
    var members: [String] = []
    var length = 0
    for message in listed {
      let member = structuredStringList([message])
      length += member.utf8.count + 2
      if length > RowsEndpoint.longestSkipList { break }
      members.append(member)
    }
    fields[.inboxSkipped] = members.joined(separator: ", ")
  }
}

/// Whether a request's body deadline has passed: set on the event loop,
/// read by the handler.
private final class BodyDeadline: Sendable {
  private let passed = Atomic<Bool>(false)
  var hasPassed: Bool { passed.load(ordering: .acquiring) }
  func pass() { passed.store(true, ordering: .releasing) }
}

/// A streamed answer whose payload turned out invalid after its head was sent.
struct StreamedPayloadError: Error {}

/// `10 seconds`, `1.5 seconds`.
func describe(_ duration: Duration) -> String {
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  return "\(text) second\(seconds == 1 ? "" : "s")"
}

extension HTTPField.Name {
  /// How many messages `skipInvalid=true` left out.
  static let inboxSkippedCount = HTTPField.Name("Inbox-Skipped-Count")!
  /// The first of them, each as the command words it: an RFC 8941 list of strings.
  static let inboxSkipped = HTTPField.Name("Inbox-Skipped")!
  /// NDJSON's trailer: when the first label written goes stale (RFC 3339).
  static let inboxStaleAt = HTTPField.Name("Inbox-Stale-At")!
}
