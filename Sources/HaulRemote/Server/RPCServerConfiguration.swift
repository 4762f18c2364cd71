/// Where and how an `RPCServer` listens.
public struct RPCServerConfiguration: Sendable, Equatable {
    /// The opt-in TCP listener (`--rpc-listen [HOST:]PORT`).
    public struct TCPListener: Sendable, Equatable {
        /// The address to bind; 127.0.0.1 unless the user names another.
        public var host: String
        /// The port; 0 picks a free one (read it back from `RPCServer.tcpPort`).
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// The owner's control socket, `$STATE/haul.sock`: created 0600, a stale file there is replaced, removed on shutdown.
    public var socketPath: String
    /// The TCP listener, when asked for; nil serves the Unix socket only.
    public var tcp: TCPListener?
    /// `--rpc-allow-origin ORIGIN`: the one origin that gets CORS headers; nil sends none.
    public var allowedOrigin: String?
    /// Largest request body or WebSocket message; a larger body gets 413.
    public var maxRequestBytes: Int
    /// An HTTP connection that sends nothing for this long is closed (WebSocket connections stay).
    public var idleTimeout: Duration
    /// How long a reply to a wrong or missing secret is held back (aria2: one second).
    public var unauthorizedDelay: Duration
    /// How many connections each listener keeps open at once; nil takes `ConnectionLimit`'s share of the
    /// process's file descriptors. A connection over the limit is closed as soon as it is accepted.
    public var maxConnections: Int?
    /// A client whose replies stay unsent this long (it does not read them) loses its connection.
    public var stalledReaderTimeout: Duration
    /// Bytes of replies one connection may have waiting to be sent (written, not yet taken by the socket) before
    /// the server stops reading and answering its requests; one reply larger than this is still sent whole.
    public var maxPendingReplyBytes: Int

    public init(
        socketPath: String, tcp: TCPListener? = nil, allowedOrigin: String? = nil,
        maxRequestBytes: Int = 1 << 20, idleTimeout: Duration = .seconds(30), unauthorizedDelay: Duration = .seconds(1),
        maxConnections: Int? = nil, stalledReaderTimeout: Duration = .seconds(10), maxPendingReplyBytes: Int = 8 << 20
    ) {
        self.socketPath = socketPath
        self.tcp = tcp
        self.allowedOrigin = allowedOrigin
        self.maxRequestBytes = maxRequestBytes
        self.idleTimeout = idleTimeout
        self.unauthorizedDelay = unauthorizedDelay
        self.maxConnections = maxConnections
        self.stalledReaderTimeout = stalledReaderTimeout
        self.maxPendingReplyBytes = maxPendingReplyBytes
    }
}
