import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Reads one HTTP request at a time on an RPC connection, routes it, and answers it through the service.
///
/// Owned by one channel's pipeline and touched only on that channel's event loop (NIO's rule for handlers);
/// the service is awaited in a task and its reply comes back to the loop through an isolated future.
/// `HTTPServerPipelineHandler` ahead of it holds back a pipelined request until the previous answer is written;
/// a request that arrives while the connection's unsent replies are over the `ReplyBacklog` bound waits here until
/// they drain.
final class RPCHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// The name it has in the pipeline, so the WebSocket upgrade can take it out.
    static let name = "haul-rpc-http"

    private enum State {
        case idle
        case receiving(HTTPRequestHead, ByteBuffer)
        /// The request was already answered (too large); its remaining parts are dropped.
        case discarding
        case answering
        /// Complete, and waiting for the connection's unsent replies to drain below the bound.
        case waitingForDrain(HTTPRequestHead, [UInt8])
    }

    private let endpoint: RPCEndpoint
    private var state = State.idle

    init(endpoint: RPCEndpoint) {
        self.endpoint = endpoint
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let declared = head.headers.first(name: "content-length").flatMap(Int.init) ?? 0
            if declared > endpoint.maxRequestBytes {
                refuseTooLarge(head, context: context)
                return
            }
            state = .receiving(head, context.channel.allocator.buffer(capacity: declared))
        case .body(var chunk):
            guard case .receiving(let head, var buffer) = state else { return }
            if buffer.readableBytes + chunk.readableBytes > endpoint.maxRequestBytes {
                refuseTooLarge(head, context: context)
                return
            }
            state = .answering  // drops the reference so the append below does not copy
            buffer.writeBuffer(&chunk)
            state = .receiving(head, buffer)
        case .end:
            switch state {
            case .receiving(let head, let buffer):
                let body = Array(buffer.readableBytesView)
                if ReplyBacklog.mayAnswer(on: context.channel) {
                    state = .answering
                    handle(head, body: body, context: context)
                } else {
                    state = .waitingForDrain(head, body)
                }
            case .discarding:
                state = .idle
            case .idle, .answering, .waitingForDrain:
                break
            }
        }
    }

    /// Answers the request that waited for the unsent replies to drain.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if case .waitingForDrain(let head, let body) = state, ReplyBacklog.mayAnswer(on: context.channel) {
            state = .answering
            handle(head, body: body, context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A refused WebSocket handshake is reported here and then passed on as a plain request, which `route` answers.
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }

    /// Routes a complete request and answers it.
    private func handle(_ head: HTTPRequestHead, body: [UInt8], context: ChannelHandlerContext) {
        let localIP = context.channel.localAddress?.ipAddress
        switch endpoint.route(head, localIP: localIP) {
        case .refuse(let status, let reason, let headers):
            send(head, status: status, headers: headers + [.init(name: "Content-Type", value: "text/plain; charset=utf-8")],
                 body: Array("\(reason)\n".utf8), keepAlive: false, context: context)
        case .preflight(let headers):
            send(head, status: .ok, headers: headers, body: [], keepAlive: head.isKeepAlive, context: context)
        case .answer(let form, let corsHeaders):
            let request: [UInt8]
            let jsonp: JSONRPCGetRequest?
            switch form {
            case .post: (request, jsonp) = (body, nil)
            case .get(let getForm): (request, jsonp) = (getForm.body, getForm)
            }
            let service = endpoint.service
            let caller = endpoint.caller
            context.eventLoop.makeFutureWithTask { await service.answer(request, from: caller) }
                .assumeIsolated()
                .whenSuccess { reply in
                    self.deliver(reply, to: head, jsonp: jsonp, corsHeaders: corsHeaders, context: context)
                }
        }
    }

    /// Sends the service's reply; a reply to a bad secret waits first, on the loop's timer, never blocking it.
    private func deliver(
        _ reply: RPCReply, to head: HTTPRequestHead, jsonp: JSONRPCGetRequest?, corsHeaders: [RPCRoute.HeaderField],
        context: ChannelHandlerContext
    ) {
        let contentType = jsonp?.callback == nil ? "application/json-rpc" : "text/javascript"
        let body = reply.body.map { jsonp?.wrap($0) ?? $0 } ?? []
        let headers = corsHeaders + [.init(name: "Content-Type", value: contentType)]
        let status = HTTPResponseStatus(statusCode: reply.httpStatus)
        // aria2 closes the connection after an error answer.
        let keepAlive = head.isKeepAlive && reply.httpStatus < 300
        let sendNow = { self.send(head, status: status, headers: headers, body: body, keepAlive: keepAlive, context: context) }
        if reply.unauthorized {
            context.eventLoop.assumeIsolated().scheduleTask(in: endpoint.unauthorizedDelay) { sendNow() }
        } else {
            sendNow()
        }
    }

    /// 413 for a body over the limit, then the connection closes (the rest of the body is not read).
    private func refuseTooLarge(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        state = .discarding
        send(head, status: .payloadTooLarge, headers: [.init(name: "Content-Type", value: "text/plain; charset=utf-8")],
             body: Array("request body over \(endpoint.maxRequestBytes) bytes\n".utf8), keepAlive: false, context: context)
    }

    /// Writes one complete response; closes the connection afterwards unless it is kept alive.
    private func send(
        _ head: HTTPRequestHead, status: HTTPResponseStatus, headers: [RPCRoute.HeaderField], body: [UInt8],
        keepAlive: Bool, context: ChannelHandlerContext
    ) {
        var fields = HTTPHeaders()
        for header in headers { fields.add(name: header.name, value: header.value) }
        fields.add(name: "Content-Length", value: String(body.count))
        fields.add(name: "Cache-Control", value: "no-cache")
        if !keepAlive { fields.add(name: "Connection", value: "close") }
        let responseHead = HTTPResponseHead(version: head.version, status: status, headers: fields)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        }
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if case .answering = state { state = .idle }
        if !keepAlive {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }
}
