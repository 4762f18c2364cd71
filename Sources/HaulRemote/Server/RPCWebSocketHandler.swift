import NIOCore
import NIOWebSocket

/// Serves JSON-RPC over one upgraded WebSocket connection: each data message is answered with a text message,
/// and the service's notifications are pushed as text messages until the client goes.
///
/// Sits after `NIOWebSocketFrameAggregator`, so every data frame it sees is a whole message. Owned by one
/// channel's pipeline and touched only on its event loop; the notification stream is read by a task that hands
/// each message to the loop (through `NIOLoopBound`) and is cancelled when the channel closes.
/// Like aria2, a binary message is read as JSON too, and a reply to a bad secret is held back about a second.
final class RPCWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: RPCEndpoint
    private let eventLoop: any EventLoop
    /// This handler's context while it is in the pipeline (NIO's usual way to write from outside a callback).
    private var context: ChannelHandlerContext?
    private var closeSent = false
    private var notificationPump: Task<Void, Never>?

    init(endpoint: RPCEndpoint, eventLoop: any EventLoop) {
        self.endpoint = endpoint
        self.eventLoop = eventLoop
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

    /// Sends one notification as a text message, unless the close handshake has begun or the handler has left.
    private func push(_ message: [UInt8]) -> EventLoopFuture<Void> {
        guard let context, !closeSent else {
            return eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: message))
        return context.writeAndFlush(wrapOutboundOut(frame))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary:
            answer(Array(frame.unmaskedData.readableBytesView), context: context)
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

    /// Answers one message through the service and sends the reply as a text message.
    private func answer(_ message: [UInt8], context: ChannelHandlerContext) {
        let service = endpoint.service
        let caller = endpoint.caller
        let delay = endpoint.unauthorizedDelay
        context.eventLoop.makeFutureWithTask { await service.answer(message, from: caller) }
            .assumeIsolated()
            .whenSuccess { reply in
                guard let body = reply.body else { return }
                let sendNow = { self.sendText(body, context: context) }
                if reply.unauthorized {
                    context.eventLoop.assumeIsolated().scheduleTask(in: delay) { sendNow() }
                } else {
                    sendNow()
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
        closeSent = true
        var data = frame.unmaskedData
        let code = data.readSlice(length: 2) ?? context.channel.allocator.buffer(capacity: 0)
        let reply = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
