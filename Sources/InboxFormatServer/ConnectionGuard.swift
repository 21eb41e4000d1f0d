import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// What the server's connections hold to, whatever route a request takes,
/// as a channel handler between the HTTP codec and Hummingbird:
///
/// - An answer that says `Connection: close` is the connection's last: the
///   connection closes once it is written, so that nothing follows it (a
///   request whose input was closed early would otherwise get a second,
///   unasked `400` from the parser).
/// - A request's body must arrive whole within the body timeout, from its
///   head on, even when no route reads it. Past the deadline, a body still
///   being read ends in a ``BodyTimedOutError`` for its reader (which
///   ``RowsEndpoint`` answers `408`) and nothing more of it is read; a body
///   left unread is read and dropped after the answer while the deadline
///   holds, and once it has passed the connection closes instead.
/// - A body that stops arriving for the idle timeout is answered `408`
///   rather than cut off in silence: the idle timer's close, while a body
///   still comes and nothing is answered, becomes a ``BodyStalledError``
///   for whoever reads the body, and the connection closes once that
///   answer is written (or five seconds later, should none be).
/// - Once the server stops (``ChannelShouldQuiesceEvent``), nothing is held
///   back or lingers: a connection closes as soon as it is asked to, so
///   that the server exits within its grace period.
/// - A request that does not ask to keep its connection (HTTP/1.0 without
///   `Connection: keep-alive`, or `Connection: close` in any case and among
///   other tokens) gets `Connection: close` on its answer, which is then the
///   connection's last. The HTTP/1 head says so; its HTTPTypes form, which
///   this handler sees, has no version, so a ``KeepAliveWatcher`` before the
///   conversion tells it.
/// - An answer its client does not read is not kept: once the connection
///   cannot take more (it is not writable) and the bytes waiting to be sent
///   have not gone down for the write timeout, the connection closes, which
///   drops them and ends the answer (and frees its place among the requests
///   in flight). A client reading slowly still makes progress and keeps it.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let bodyTimeout: TimeAmount
  private var deadline: Scheduled<Void>?
  /// When the head of the request read last arrived: its body's deadline
  /// counts from then.
  private var headArrived = NIODeadline.uptimeNanoseconds(0)
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
  /// Whether each request read and not yet answered asks to keep the
  /// connection, oldest first (``KeepAliveWatcher`` adds them).
  fileprivate var requestsKeepAlive: [Bool] = []
  private let writeTimeout: TimeAmount
  /// The next check of an answer that cannot be written, while the connection is not writable.
  private var writeCheck: Scheduled<Void>?

  /// How long a close is held back for a stalled body's answer.
  static let stallAnswerGrace = TimeAmount.seconds(5)

  /// A guard whose requests' bodies must arrive within `bodyTimeout`, and
  /// whose answers must make progress within `writeTimeout`.
  init(bodyTimeout: TimeAmount, writeTimeout: TimeAmount) {
    self.bodyTimeout = bodyTimeout
    self.writeTimeout = writeTimeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let operations = context.pipeline.syncOperations
    if let codec = try? operations.handler(type: HTTP1ToHTTPServerCodec.self) {
      try? operations.addHandler(KeepAliveWatcher(self), position: .before(codec))
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head:
      bodyIsWhole = false
      deadlineHasPassed = false
      isAnswered = false
      deadline?.cancel()
      deadline = nil
      headArrived = .now()
    case .end:
      bodyIsWhole = true
      deadline?.cancel()
      deadline = nil
    case .body:
      break
    }
    context.fireChannelRead(data)
  }

  /// A body that has not arrived whole with what was read gets its timer,
  /// counting from its head: most bodies come with their heads, and need none.
  func channelReadComplete(context: ChannelHandlerContext) {
    if !bodyIsWhole, deadline == nil, !deadlineHasPassed {
      let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      deadline = context.eventLoop.scheduleTask(deadline: headArrived + bodyTimeout) {
        let (handler, context) = loopBound.value
        handler.deadlinePassed(context: context)
      }
    }
    context.fireChannelReadComplete()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    var data = data
    switch unwrapOutboundIn(data) {
    case .head(var response):
      if response.status.kind != .informational, !requestsKeepAlive.isEmpty, !requestsKeepAlive.removeFirst() {
        response.headerFields[.connection] = "close"
        data = wrapOutboundOut(.head(response))
      }
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
    writeCheck?.cancel()
    writeCheck = nil
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      writeCheck?.cancel()
      writeCheck = nil
    } else if writeCheck == nil {
      checkWrites(context: context, waiting: Self.bytesWaiting(context))
    }
    context.fireChannelWritabilityChanged()
  }

  /// In ``writeTimeout``, closes the connection if it is still not
  /// writable and no fewer than `waiting` bytes wait to be sent; checks
  /// again after that while fewer do.
  private func checkWrites(context: ChannelHandlerContext, waiting: Int) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    writeCheck = context.eventLoop.scheduleTask(in: writeTimeout) {
      let (handler, context) = loopBound.value
      handler.writeCheck = nil
      guard !context.channel.isWritable else { return }
      let now = Self.bytesWaiting(context)
      if now < waiting {
        handler.checkWrites(context: context, waiting: now)
      } else {
        context.close(promise: nil)
      }
    }
  }

  /// The bytes written to the connection and not yet sent (0 when the channel does not say).
  private static func bytesWaiting(_ context: ChannelHandlerContext) -> Int {
    (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
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

  /// Past the deadline a body still coming is not read further: its reader
  /// gets a ``BodyTimedOutError``, and once the answer is written the
  /// connection closes (at once when it is).
  private func deadlinePassed(context: ChannelHandlerContext) {
    deadline = nil
    guard !bodyIsWhole else { return }
    deadlineHasPassed = true
    if isAnswered {
      context.close(promise: nil)
    } else {
      context.fireErrorCaught(BodyTimedOutError())
      context.close(mode: .input, promise: nil)
    }
  }
}

/// A request's body stopped arriving for the idle timeout.
struct BodyStalledError: Error {}

/// A request's body did not arrive whole within the body timeout.
struct BodyTimedOutError: Error {}

/// Tells a ``ConnectionGuard`` whether each request asks to keep its
/// connection, from its HTTP/1 head (version and `Connection`), before that
/// head becomes an HTTPTypes request without a version.
final class KeepAliveWatcher: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  private let connection: ConnectionGuard

  init(_ connection: ConnectionGuard) {
    self.connection = connection
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head(let head) = unwrapInboundIn(data) { connection.requestsKeepAlive.append(head.isKeepAlive) }
    context.fireChannelRead(data)
  }
}
