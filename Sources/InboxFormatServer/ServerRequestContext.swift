package import Hummingbird
package import NIOCore
import Synchronization

/// The context of each request: Hummingbird's, the connection it came on,
/// whether its body has been read, and its id.
package struct ServerRequestContext: RequestContext {
  /// Hummingbird's part: the logger, the route's parameters.
  package var coreContext: CoreRequestContextStorage
  /// The connection, so that a request refused before its body is read can
  /// stop reading it (`close(mode: .input)`): otherwise the server would
  /// read and drop the rest of it, however large, to keep the connection.
  package let channel: any Channel
  /// Set once the handler has read the body whole.
  package let body: BodyState
  /// The request's id (``RequestID``), set by the access log before any
  /// other middleware sees the request; problem documents carry it.
  package var requestID = ""

  /// The context of a request that came on `source`'s connection.
  package init(source: ApplicationRequestContextSource) {
    coreContext = CoreRequestContextStorage(source: source)
    channel = source.channel
    body = BodyState()
  }
}

/// Whether a request's body has been read whole, told by the handler to the
/// middleware that answers errors.
package final class BodyState: Sendable {
  private let read = Atomic<Bool>(false)

  /// Whether the body was read whole.
  package var isRead: Bool { read.load(ordering: .acquiring) }

  /// Records that the body was read whole.
  package func markRead() { read.store(true, ordering: .releasing) }
}

extension Request {
  /// A body left unread that is at most this long is read and dropped by
  /// the server, which keeps the connection; a longer one, or one of
  /// unknown length, is not read at all (the connection then closes).
  static let longestBodyDrained = 64 << 10

  /// Whether the request's body, if it is left unread, must not be read
  /// after the answer: longer than ``longestBodyDrained``, or chunked.
  var hasBodyNotToDrain: Bool {
    if let length = headers.value(.contentLength) { return (Int(length) ?? Int.max) > Self.longestBodyDrained }
    return headers.value(.transferEncoding) != nil
  }
}
