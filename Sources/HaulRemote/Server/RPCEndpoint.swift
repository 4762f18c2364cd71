import NIOCore

/// Everything one listener's connections need to answer requests: the service, who the callers are, and the rules.
///
/// A value shared by every connection of one listener (the Unix socket or the TCP port); it holds no
/// per-connection state.
struct RPCEndpoint: Sendable {
    /// The path every request must name, for HTTP and WebSocket alike (aria2's).
    static let path = "/jsonrpc"

    let service: any RPCService
    let caller: RPCCaller
    /// The `Host` rule; nil on the Unix socket, where no browser can reach.
    let hostCheck: HostCheck?
    let cors: CORSPolicy
    /// Largest request body or WebSocket message, in bytes.
    let maxRequestBytes: Int
    /// How long a reply with `unauthorized` set is held back.
    let unauthorizedDelay: TimeAmount
    /// How long replies may stay unsent before the client that does not read them is dropped.
    let stalledReaderTimeout: TimeAmount
    /// Bytes of replies a connection may have waiting to be sent before its next request waits (see `ReplyBacklog`).
    let maxPendingReplyBytes: Int
}

/// Makes the `RPCEndpoint` for each accepted connection of one listener.
struct EndpointFactory: Sendable {
    let service: any RPCService
    let caller: RPCCaller
    /// The host the TCP listener was bound with; nil for the Unix socket (no `Host` check).
    let tcpHost: String?
    let cors: CORSPolicy
    let maxRequestBytes: Int
    let unauthorizedDelay: TimeAmount
    let stalledReaderTimeout: TimeAmount
    let maxPendingReplyBytes: Int

    /// The endpoint for `channel`. On TCP the `Host` rule takes the port the connection arrived on, which is
    /// the bound one even when the listener asked for port 0.
    func endpoint(for channel: any Channel) -> RPCEndpoint {
        let check = tcpHost.map { HostCheck(configuredHost: $0, port: channel.localAddress?.port ?? -1) }
        return RPCEndpoint(
            service: service, caller: caller, hostCheck: check, cors: cors, maxRequestBytes: maxRequestBytes,
            unauthorizedDelay: unauthorizedDelay, stalledReaderTimeout: stalledReaderTimeout,
            maxPendingReplyBytes: maxPendingReplyBytes)
    }
}
