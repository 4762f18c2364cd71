import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Builds the pipeline of one accepted RPC connection: HTTP/1.1 with an idle timeout, upgradable to WebSocket on
/// `/jsonrpc`.
///
/// First, for HTTP and WebSocket alike: the `ReplyBacklog` bound on unsent replies, NIO's `BackPressureHandler`
/// (no more requests are read while replies over that bound wait to be sent) and a `StalledReaderCloser` (a
/// client that never reads its replies is dropped).
/// HTTP: NIO's codec, pipelining and protocol-error handlers, then an idle closer and `RPCHTTPHandler`.
/// After a WebSocket upgrade the HTTP handler and the idle closer leave (WebSocket clients such as AriaNg sit
/// idle for long stretches and wait for notifications); a frame aggregator bounded by the request limit and
/// `RPCWebSocketHandler` take their place.
enum RPCConnectionPipeline {
    /// Configures `channel`; must run on the channel's event loop (as a child channel initializer does).
    static func configure(_ channel: any Channel, endpoint: RPCEndpoint, idleTimeout: TimeAmount) throws {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: endpoint.maxRequestBytes,
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let accepted = endpoint.acceptsUpgrade(head, localIP: channel.localAddress?.ipAddress)
                return channel.eventLoop.makeSucceededFuture(accepted ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try switchToWebSocket(channel.pipeline.syncOperations, endpoint: endpoint, eventLoop: channel.eventLoop)
                }
            })
        let sync = channel.pipeline.syncOperations
        try channel.syncOptions?.setOption(
            .writeBufferWaterMark, value: ReplyBacklog.waterMark(maxPendingBytes: endpoint.maxPendingReplyBytes))
        try sync.addHandler(BackPressureHandler())
        try sync.addHandler(StalledReaderCloser(timeout: endpoint.stalledReaderTimeout))
        try sync.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }),
            withErrorHandling: true)
        try sync.addHandler(IdleStateHandler(readTimeout: idleTimeout), name: IdleConnectionCloser.stateHandlerName)
        try sync.addHandler(IdleConnectionCloser(), name: IdleConnectionCloser.name)
        try sync.addHandler(RPCHTTPHandler(endpoint: endpoint), name: RPCHTTPHandler.name)
    }

    /// Replaces the HTTP handlers with the WebSocket ones, once the upgrade response is on its way.
    private static func switchToWebSocket(
        _ sync: ChannelPipeline.SynchronousOperations, endpoint: RPCEndpoint, eventLoop: any EventLoop
    ) throws {
        for name in [RPCHTTPHandler.name, IdleConnectionCloser.name, IdleConnectionCloser.stateHandlerName] {
            sync.removeHandler(name: name, promise: nil)
        }
        let aggregator = NIOWebSocketFrameAggregator(
            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024,
            maxAccumulatedFrameSize: endpoint.maxRequestBytes)
        try sync.addHandler(aggregator)
        try sync.addHandler(RPCWebSocketHandler(endpoint: endpoint, eventLoop: eventLoop))
    }
}
