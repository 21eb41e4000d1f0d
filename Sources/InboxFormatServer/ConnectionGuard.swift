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
/// - A body that stops arriving for the idle timeout is answered `408`
///   rather than cut off in silence: the idle timer's close, while a body
///   still comes and nothing is answered, becomes a ``BodyStalledError``
///   for whoever reads the body, and the connection closes once that
///   answer is written (or five seconds later, should none be).
/// - Once the server stops (``ChannelShouldQuiesceEvent``), nothing is held
///   back or lingers: a connection closes as soon as it is asked to, so
///   that the server exits within its grace period.
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
  /// A close held back while a stalled body's reader answers, and its promise.
  private var heldClose: (Scheduled<Void>, EventLoopPromise<Void>?)?
  /// The connection's output is closed after its last answer, and the rest
  /// waits for the lingering to end.
  private var isLingering = false
  /// The server is stopping.
  private var isQuiescing = false

  /// How long a close is held back for a stalled body's answer.
  static let stallAnswerGrace = TimeAmount.seconds(5)

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
      if let (timer, closePromise) = heldClose {
        timer.cancel()
        heldClose = nil
        context.writeAndFlush(data, promise: promise)
        closeAfterLingering(context: context, promise: closePromise)
        return
      }
      if closesAfterAnswer || (deadlineHasPassed && !bodyIsWhole) {
        context.writeAndFlush(data, promise: promise)
        closeAfterLingering(context: context)
        return
      }
      isAnswered = true
    case .body:
      break
    }
    context.write(data, promise: promise)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent {
      isQuiescing = true
      if isLingering { context.close(promise: nil) }
    }
    context.fireUserInboundEventTriggered(event)
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    // Only the idle timer closes the whole connection while a request's
    // body is still coming and nothing is answered; a stopping server's
    // close is never held.
    guard mode == .all, !isQuiescing, !bodyIsWhole, !isAnswered, heldClose == nil else {
      context.close(mode: mode, promise: promise)
      return
    }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let timer = context.eventLoop.scheduleTask(in: Self.stallAnswerGrace) {
      let (handler, context) = loopBound.value
      guard let (_, closePromise) = handler.heldClose else { return }
      handler.heldClose = nil
      context.close(promise: closePromise)
    }
    heldClose = (timer, promise)
    context.fireErrorCaught(BodyStalledError())
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    heldClose?.0.cancel()
    deadline?.cancel()
    deadline = nil
  }

  /// Ends the connection after its last answer: the output at once, so
  /// that nothing can follow the answer, and the rest a moment later. A
  /// socket closed whole while the client's unread body is still in it
  /// answers with a reset, which can reach the client before the answer
  /// has been read and destroy it.
  private func closeAfterLingering(context: ChannelHandlerContext, promise: EventLoopPromise<Void>? = nil) {
    guard !isQuiescing else {
      context.close(promise: promise)
      return
    }
    isLingering = true
    context.close(mode: .output, promise: nil)
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.eventLoop.scheduleTask(in: Self.linger) {
      loopBound.value.close(promise: promise)
    }
  }

  /// How long a connection lingers after its last answer.
  static let linger = TimeAmount.seconds(5)

  /// Past the deadline a body still coming is not read further: once the
  /// answer is written the connection closes (at once when it is).
  private func deadlinePassed(context: ChannelHandlerContext) {
    deadline = nil
    guard !bodyIsWhole else { return }
    deadlineHasPassed = true
    if isAnswered { context.close(promise: nil) }
  }
}

/// A request's body stopped arriving for the idle timeout.
struct BodyStalledError: Error {}
