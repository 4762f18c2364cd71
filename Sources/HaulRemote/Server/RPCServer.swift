import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Serves one `RPCService` over HTTP/1.1 and WebSocket at `/jsonrpc`, on the owner's Unix socket and, when asked,
/// on a TCP listener.
///
/// On the Unix socket callers are `.localSocket` and no `Host` check applies (the socket is 0600 in the 0700
/// state directory). On TCP callers are `.tcp`, the `Host` header must name the listener, and CORS headers go
/// only to the configured origin. `start()` binds both; `shutdown()` closes the listeners and every open
/// connection and removes the socket file.
public actor RPCServer {
    private let service: any RPCService
    private let configuration: RPCServerConfiguration
    private let group: any EventLoopGroup
    /// The open connections of each listener (the Unix socket's and the TCP listener's), each under its own limit,
    /// so that a flood on TCP never takes the owner's socket's room.
    private let socketConnections: ConnectionRegistry
    private let tcpConnections: ConnectionRegistry
    private var listeners: [any Channel] = []
    private var boundTCPPort: Int?
    private var started = false
    /// Whether the socket file at the path is ours to remove.
    private var socketBound = false

    /// - Parameter group: the event loops connections run on; the process-wide NIO group unless given.
    public init(
        service: any RPCService, configuration: RPCServerConfiguration,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.service = service
        self.configuration = configuration
        self.group = group
        let limit = configuration.maxConnections ?? ConnectionLimit.forThisProcess()
        socketConnections = ConnectionRegistry(limit: limit)
        tcpConnections = ConnectionRegistry(limit: limit)
    }

    /// The TCP port actually bound (useful with port 0); nil before `start()` or without a TCP listener.
    public var tcpPort: Int? { boundTCPPort }

    /// How many connections are open on the Unix socket and on TCP.
    public var openConnections: (socket: Int, tcp: Int) { (socketConnections.count, tcpConnections.count) }

    /// Binds the Unix socket (replacing a stale socket file, then making it 0600) and the TCP listener if configured.
    ///
    /// The caller guarantees that no live owner uses the socket path (it holds the transfer lock).
    /// Nothing stays bound when this throws.
    public func start() async throws {
        guard !started else { throw RPCServerError.alreadyStarted }
        started = true
        do {
            listeners.append(try await bindSocket())
            if let tcp = configuration.tcp {
                let channel = try await bindTCP(tcp)
                boundTCPPort = channel.localAddress?.port
                listeners.append(channel)
            }
        } catch {
            await shutdown()
            throw error
        }
    }

    /// Closes the listeners and every open connection, then removes the socket file. Idempotent.
    public func shutdown() async {
        let open = listeners
        listeners = []
        for channel in open {
            try? await channel.close()
        }
        await socketConnections.closeAll()
        await tcpConnections.closeAll()
        if socketBound {
            SocketFile.removeIfSocket(configuration.socketPath)
            socketBound = false
        }
    }

    private func bindSocket() async throws -> any Channel {
        let path = configuration.socketPath
        let endpoint = makeEndpoint(caller: .init(transport: .localSocket), tcpHost: nil)
        let channel: any Channel
        do {
            channel = try await bootstrap(endpoint, connections: socketConnections).bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).get()
        } catch {
            throw RPCServerError.cannotListenOnSocket(path: path, reason: String(describing: error))
        }
        socketBound = true
        do {
            try SocketFile.makePrivate(path)
        } catch {
            try? await channel.close()
            throw error
        }
        return channel
    }

    private func bindTCP(_ tcp: RPCServerConfiguration.TCPListener) async throws -> any Channel {
        let endpoint = makeEndpoint(caller: .init(transport: .tcp), tcpHost: tcp.host)
        do {
            return try await bootstrap(endpoint, connections: tcpConnections).bind(host: tcp.host, port: tcp.port).get()
        } catch {
            throw RPCServerError.cannotListenOnTCP(host: tcp.host, port: tcp.port, reason: String(describing: error))
        }
    }

    private func makeEndpoint(caller: RPCCaller, tcpHost: String?) -> EndpointFactory {
        EndpointFactory(
            service: service, caller: caller, tcpHost: tcpHost, cors: CORSPolicy(allowedOrigin: configuration.allowedOrigin),
            maxRequestBytes: configuration.maxRequestBytes, unauthorizedDelay: TimeAmount(configuration.unauthorizedDelay),
            stalledReaderTimeout: TimeAmount(configuration.stalledReaderTimeout),
            maxPendingReplyBytes: configuration.maxPendingReplyBytes)
    }

    /// Accepting backs off for a second when `accept` fails (out of descriptors, say) instead of spinning on a
    /// listener that stays readable; a connection over the listener's limit is closed as soon as it is accepted.
    private func bootstrap(_ factory: EndpointFactory, connections: ConnectionRegistry) -> ServerBootstrap {
        let idleTimeout = TimeAmount(configuration.idleTimeout)
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler())
                }
            }
            .childChannelInitializer { channel in
                guard connections.track(channel) else { return channel.eventLoop.makeSucceededVoidFuture() }
                return channel.eventLoop.makeCompletedFuture {
                    try RPCConnectionPipeline.configure(
                        channel, endpoint: factory.endpoint(for: channel), idleTimeout: idleTimeout)
                }
            }
    }
}
