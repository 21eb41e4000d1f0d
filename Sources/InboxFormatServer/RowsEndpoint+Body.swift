import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

// `POST /v1/rows`'s body: read whole, within its limit, its deadline and
// the budget of bodies held.

extension RowsEndpoint {
  /// The body, read whole, and its share of the budget of bodies held: 413
  /// past the limit, 408 past the deadline and 503 past the budget, all
  /// without reading further. A declared length is taken from the budget
  /// before anything is read; a chunked body's bytes as they come.
  /// `declared` is its `Content-Length`, as the caller read it.
  func readBody(
    of request: Request, declared: Int?, context: ServerRequestContext
  ) async throws -> (ByteBuffer, BodyBudget.Share) {
    let (limit, timeout) = (configuration.maxBodySize, configuration.bodyTimeout)
    let share = bodies.share()
    var buffer = ByteBuffer()
    if let declared {
      guard share.grow(to: declared) else { throw overBudget(context) }
      buffer.reserveCapacity(declared)
    }
    // The deadline is the connection's (``ConnectionGuard``), kept on its
    // event loop: a timer set from here would wake that loop twice a request.
    do {
      for try await part in request.body {
        guard buffer.readableBytes + part.readableBytes <= limit else { throw tooLarge(context) }
        buffer.writeImmutableBuffer(part)
        guard share.grow(to: buffer.readableBytes) else { throw overBudget(context) }
      }
    } catch is BodyTimedOutError {
      throw timedOut(timeout)
    } catch  where Task.isCancelled {
      // Shutdown's grace period ran out while the body was coming: a 503
      // (``ProblemMiddleware``), not whatever the cut-off body reads as.
      throw CancellationError()
    }
    if Task.isCancelled { throw CancellationError() }
    context.body.markRead()
    return (buffer, share)
  }

  func overBudget(_ context: ServerRequestContext) -> Problem {
    Problem(
      .serviceUnavailable,
      detail: "the server holds \(configuration.maxBodyMemory) bytes of request bodies at most, "
        + "and has not room for this one now; try again in a second",
      headers: [.retryAfter: "1"])
  }

  func timedOut(_ timeout: Duration) -> Problem {
    Problem(
      .requestTimeout, detail: "the request body did not arrive whole within \(describe(timeout))",
      headers: [.connection: "close"])
  }

  func tooLarge(_ context: ServerRequestContext) -> Problem {
    context.channel.close(mode: .input, promise: nil)
    return Problem(
      .contentTooLarge, detail: "the request body is larger than \(configuration.maxBodySize) bytes, the most read",
      headers: [.connection: "close"])
  }
}
