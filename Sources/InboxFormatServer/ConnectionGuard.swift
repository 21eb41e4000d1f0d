import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What the server's connections hold to, whatever route a request takes,
/// as a channel handler between the HTTP codec and Hummingbird:
///
/// - An answer that says `Connection: close` is the connection's last: the
///   connection closes once it is written, so that nothing follows it (a
///   request whose input was closed early would otherwise get a second,
///   unasked `400` from the parser).
/// - A request's body must arrive whole within the body timeout, from its
///   head on, even when no route reads it: a body left unread is read and
///   dropped after the answer, and once the deadline has passed the
///   connection closes instead. (A route that reads a body answers `408`
///   itself: ``RowsEndpoint``.)
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let bodyTimeout: TimeAmount
  private var deadline: Scheduled<Void>?
  /// The body of the request read last has arrived whole.
  private var bodyIsWhole = true
  /// Its deadline has passed.
  private var deadlineHasPassed = false
  /// Its answer has been written whole.
  private var isAnswered = false
  /// The answer being written says `Connection: close`.
  private var closesAfterAnswer = false

  init(bodyTimeout: TimeAmount) {
    self.bodyTimeout = bodyTimeout
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      bodyIsWhole = false
      deadlineHasPassed = false
      isAnswered = false
      deadline?.cancel()
      let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      deadline = context.eventLoop.scheduleTask(in: bodyTimeout) {
        let (handler, context) = loopBound.value
        handler.deadlinePassed(context: context)
      }
    case .end:
      bodyIsWhole = true
      deadline?.cancel()
      deadline = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(let response):
      closesAfterAnswer = response.headerFields[.connection]?.lowercased() == "close"
    case .end:
      if closesAfterAnswer || (deadlineHasPassed && !bodyIsWhole) {
        context.writeAndFlush(data, promise: promise)
        context.close(promise: nil)
        return
      }
      isAnswered = true
    case .body:
      break
    }
    context.write(data, promise: promise)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  /// Past the deadline a body still coming is not read further: once the
  /// answer is written the connection closes (at once when it is).
  private func deadlinePassed(context: ChannelHandlerContext) {
    deadline = nil
    guard !bodyIsWhole else { return }
    deadlineHasPassed = true
    if isAnswered { context.close(promise: nil) }
  }
}
