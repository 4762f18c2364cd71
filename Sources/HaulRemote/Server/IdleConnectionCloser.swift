import NIOCore

/// Closes a connection when `IdleStateHandler` reports it idle: an HTTP client that neither sends nor reads
/// for the idle timeout loses its connection (aria2 gives up after 30 s the same way).
///
/// Touched only on its channel's event loop.
final class IdleConnectionCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The names this handler and its `IdleStateHandler` have in the pipeline, so the WebSocket upgrade can remove them.
    static let name = "haul-rpc-idle-closer"
    static let stateHandlerName = "haul-rpc-idle-state"

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
