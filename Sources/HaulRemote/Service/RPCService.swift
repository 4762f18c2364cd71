/// The protocol side of remote control, as the transports see it: JSON-RPC text in, JSON-RPC text out.
///
/// The HTTP and WebSocket transports (Unix socket and TCP) hand every request body or text message to
/// `answer(_:from:)` and send back what it returns; WebSocket clients also get `notifications()`.
public protocol RPCService: Sendable {
    /// Answers one HTTP body or WebSocket text message (a single request or a batch).
    func answer(_ body: [UInt8], from caller: RPCCaller) async -> RPCReply
    /// aria2's `aria2.onDownload*` notifications, already encoded; one stream per WebSocket client.
    func notifications() -> AsyncStream<[UInt8]>
}

/// Who sent a request; decides which methods apply and whether a secret is needed.
public struct RPCCaller: Sendable, Equatable {
    public enum Transport: Sendable, Equatable {
        /// The owner's Unix socket (0600 in the 0700 state directory): the same user, trusted, no secret.
        case localSocket
        /// The opt-in TCP listener: aria2 methods only, `token:SECRET` required.
        case tcp
    }

    public var transport: Transport

    public init(transport: Transport) { self.transport = transport }
}

/// The answer to one request body.
public struct RPCReply: Sendable, Equatable {
    /// The response text; nil when every request was a notification (nothing is sent back but the status).
    public var body: [UInt8]?
    /// The HTTP status aria2 gives: 200 for success, 400 when the (single) request failed.
    public var httpStatus: Int
    /// The secret was wrong or missing: the transport answers only after about a second.
    public var unauthorized: Bool
    /// The caller has shown the secret (or needs none, on the owner's socket): a WebSocket connection may be sent
    /// notifications from now on.
    public var authorized: Bool

    public init(body: [UInt8]?, httpStatus: Int = 200, unauthorized: Bool = false, authorized: Bool = false) {
        self.body = body
        self.httpStatus = httpStatus
        self.unauthorized = unauthorized
        self.authorized = authorized
    }
}
