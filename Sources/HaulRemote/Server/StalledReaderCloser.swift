import NIOCore

/// Drops a client that stops reading its replies: once the connection's outbound buffer is over its high-water
/// mark (the channel is not writable) for `timeout`, the connection is closed.
///
/// Works with NIO's `BackPressureHandler`, which stops reading requests while the channel is not writable, and
/// the handlers that answer none while it is not (`ReplyBacklog`), so that a client that pipelines requests and
/// never reads costs at most the bound plus one reply of memory, and only for `timeout`. Touched only on its
/// channel's event loop.
final class StalledReaderCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var pendingClose: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            pendingClose?.cancel()
            pendingClose = nil
        } else if pendingClose == nil {
            pendingClose = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        pendingClose?.cancel()
        pendingClose = nil
    }
}
