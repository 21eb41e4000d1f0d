import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import Logging
import NIOCore

extension RowsEndpoint {
  /// The rows as NDJSON, streamed as they are made once the payload has
  /// proved valid or ``ndjsonHoldBack`` bytes are ready; the validator, the
  /// instant the first label goes stale and the skipped messages follow as
  /// trailers. `contentType` and `language` are those `headers` hold,
  /// which the validator covers.
  func ndjson(
    _ payload: ByteBuffer, formatter: InboxFormatter, skipInvalid: Bool, contentType: String, language: String,
    headers: HTTPFields
  ) async throws -> Response {
    let (events, continuation) = AsyncStream<FormatEvent>.makeStream()
    let skips = SkipList()
    // Off the server's threads: formatting blocks its thread while other
    // cores make rows, and this task is free to hand them on meanwhile.
    DispatchQueue.global().async {
      let skip: ((InboxFormatError) -> Void)? = skipInvalid ? { skips.add($0) } : nil
      do {
        let validUntil = try payload.withUnsafeReadableBytes { raw in
          try formatter.format(bytes: raw.bindMemory(to: UInt8.self), skipInvalid: skip) { chunk in
            continuation.yield(.chunk(chunk))
          }
        }
        continuation.yield(.finished(validUntil: validUntil))
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
    headers[.trailer] = "ETag, Inbox-Valid-Until, Inbox-Skipped-Count, Inbox-Skipped"
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
        guard case .finished(let validUntil) = outcome else {
          // The head is sent: the answer can only end short, without its
          // last chunk, so that no client takes it for a whole one.
          let reason = if case .failed(let error) = outcome { "\(error)" } else { "formatting stopped" }
          logger.notice("an NDJSON answer ended short: \(reason)")
          throw StreamedPayloadError()
        }
        var trailers: HTTPFields = [.eTag: hasher.tag(contentType: contentType, language: language)]
        if let validUntil { trailers[.inboxValidUntil] = InboxFormatter.utcText(roundingDown: validUntil) }
        skips.describe(in: &trailers)
        try await writer.finish(trailers)
      })
  }
}

/// What formatting on another thread hands to the answer.
enum FormatEvent: Sendable {
  case chunk([UInt8])
  case finished(validUntil: Date?)
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

/// A streamed answer whose payload turned out invalid after its head was sent.
struct StreamedPayloadError: Error {}
