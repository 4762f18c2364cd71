import NIOCore
import NIOWebSocket

/// Serves JSON-RPC over one upgraded WebSocket connection: each data message is answered with a text message,
/// and the service's notifications are pushed as text messages until the client goes.
///
/// Sits after `NIOWebSocketFrameAggregator`, so every data frame it sees is a whole message. Owned by one
/// channel's pipeline and touched only on its event loop; the notification stream is read by a task that hands
/// each message to the loop (through `NIOLoopBound`) and is cancelled when the channel closes.
///
/// Like aria2, a binary message is read as JSON too. Unlike aria2, on TCP:
/// - messages are answered one at a time, and a reply to a bad secret is held back about a second before the
///   next message is read, so guessing costs a second a guess on each connection;
/// - at most `queueLimit` messages wait their turn; past that, nothing more is read until the queue drains;
/// - no message is answered while the connection's unsent replies are over the `ReplyBacklog` bound;
/// - notifications go only to a connection that has shown the secret (the owner's Unix socket needs none).
final class RPCWebSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Messages that may wait their turn before reading stops.
    static let queueLimit = 16

    private let endpoint: RPCEndpoint
    private let eventLoop: any EventLoop
    /// This handler's context while it is in the pipeline (NIO's usual way to write from outside a callback).
    private var context: ChannelHandlerContext?
    private var closeSent = false
    private var notificationPump: Task<Void, Never>?
    /// Messages received and not yet answered, oldest first.
    private var waiting = CircularBuffer<[UInt8]>()
    /// Whether a message is being answered (or its reply held back).
    private var answering = false
    /// A read the channel asked for while the queue was full.
    private var readHeld = false
    /// Whether this connection may receive notifications.
    private var authorized: Bool

    init(endpoint: RPCEndpoint, eventLoop: any EventLoop) {
        self.endpoint = endpoint
        self.eventLoop = eventLoop
        authorized = endpoint.caller.transport == .localSocket
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let stream = endpoint.service.notifications()
        let pump = Task {
            for await message in stream {
                do {
                    // Waiting for each write keeps a slow client's backlog in its own stream, not in memory here.
                    try await channel.eventLoop.flatSubmit { handler.value.push(message) }.get()
                } catch {
                    return
                }
            }
        }
        notificationPump = pump
        channel.closeFuture.whenComplete { _ in pump.cancel() }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        notificationPump?.cancel()
        self.context = nil
    }

    /// Sends one notification as a text message, unless the close handshake has begun, the handler has left, or
    /// the client has not shown the secret (then the message is skipped).
    private func push(_ message: [UInt8]) -> EventLoopFuture<Void> {
        guard let context, !closeSent else {
            return eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        }
        guard authorized else { return eventLoop.makeSucceededVoidFuture() }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: message))
        return context.writeAndFlush(wrapOutboundOut(frame))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            waiting.append(Array(frame.unmaskedData.readableBytesView))
            answerNext(context: context)
        case .ping:
            guard !closeSent else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            receivedClose(frame, context: context)
        default:
            break
        }
    }

    /// Holds the channel's reads while the queue is full.
    func read(context: ChannelHandlerContext) {
        if waiting.count >= Self.queueLimit {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// A message past the aggregator's limits closes the connection with 1009 (too large) or 1002, as one
    /// oversized frame does.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let aggregation = error as? NIOWebSocketFrameAggregator.Error else {
            context.fireErrorCaught(error)
            return
        }
        switch aggregation {
        case .accumulatedFrameSizeIsTooLarge, .tooManyFragments: close(with: .messageTooLarge, context: context)
        default: close(with: .protocolError, context: context)
        }
    }

    /// Answers what waited for the unsent replies to drain.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        answerNext(context: context)
        context.fireChannelWritabilityChanged()
    }

    /// Answers the oldest waiting message, unless one is being answered or the unsent replies are over the bound.
    private func answerNext(context: ChannelHandlerContext) {
        guard !answering, !closeSent, !waiting.isEmpty, ReplyBacklog.mayAnswer(on: context.channel) else { return }
        let message = waiting.removeFirst()
        answering = true
        if readHeld, waiting.count < Self.queueLimit {
            readHeld = false
            context.read()
        }
        let service = endpoint.service
        let caller = endpoint.caller
        let delay = endpoint.unauthorizedDelay
        context.eventLoop.makeFutureWithTask { await service.answer(message, from: caller) }
            .assumeIsolated()
            .whenSuccess { reply in
                if reply.authorized { self.authorized = true }
                let finish = {
                    if let body = reply.body { self.sendText(body, context: context) }
                    self.answering = false
                    self.answerNext(context: context)
                }
                if reply.unauthorized {
                    context.eventLoop.assumeIsolated().scheduleTask(in: delay) { finish() }
                } else {
                    finish()
                }
            }
    }

    private func sendText(_ body: [UInt8], context: ChannelHandlerContext) {
        guard !closeSent, context.channel.isActive else { return }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: body))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    /// The close handshake: echo the client's status code, then close the connection.
    private func receivedClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard !closeSent else {
            context.close(promise: nil)
            return
        }
        var data = frame.unmaskedData
        let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
        sendClose(code, context: context)
    }

    /// Starts the close handshake with `code`. The connection closes when the client answers with its own close
    /// frame, or after a second: closing at once, while the client is still sending, would reset the connection
    /// and lose the close frame on its way.
    private func close(with code: WebSocketErrorCode, context: ChannelHandlerContext) {
        guard !closeSent else { return }
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: code)
        closeSent = true
        waiting.removeAll(keepingCapacity: false)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { context.close(promise: nil) }
    }

    /// Answers the client's close frame and closes the connection once the answer is out.
    private func sendClose(_ data: ByteBuffer, context: ChannelHandlerContext) {
        closeSent = true
        waiting.removeAll(keepingCapacity: false)
        let reply = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
