package import Hummingbird
package import NIOCore
import Synchronization

/// The context of each request: Hummingbird's, the connection it came on,
/// and whether its body has been read.
package struct ServerRequestContext: RequestContext {
  package var coreContext: CoreRequestContextStorage
  /// The connection, so that a request refused before its body is read can
  /// stop reading it (`close(mode: .input)`): otherwise the server would
  /// read and drop the rest of it, however large, to keep the connection.
  package let channel: any Channel
  /// Set once the handler has read the body whole.
  package let body: BodyState

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
  /// Whether the request says it has a body: a `Content-Length` above 0,
  /// or a `Transfer-Encoding`.
  var declaresBody: Bool {
    if let length = headers[.contentLength] { return length != "0" }
    return headers[.transferEncoding] != nil
  }
}
