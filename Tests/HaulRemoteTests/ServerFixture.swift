import Foundation
import HaulRemote
import HaulTestSupport
import Testing

/// An `RPCServer` serving an `EchoService` from a fresh 0700 directory, with or without a TCP listener on port 0.
struct ServerFixture {
    let directory: TemporaryDirectory
    let service = EchoService()
    let server: RPCServer
    let socketPath: String

    init(
        tcp: Bool = false, allowedOrigin: String? = nil, maxRequestBytes: Int = 1 << 20,
        idleTimeout: Duration = .seconds(30), maxConnections: Int? = nil, stalledReaderTimeout: Duration = .seconds(10),
        maxPendingReplyBytes: Int = 8 << 20
    ) throws {
        directory = try TemporaryDirectory(prefix: "haul-rpc")
        socketPath = directory.file("haul.sock")
        let configuration = RPCServerConfiguration(
            socketPath: socketPath, tcp: tcp ? .init(port: 0) : nil, allowedOrigin: allowedOrigin,
            maxRequestBytes: maxRequestBytes, idleTimeout: idleTimeout, maxConnections: maxConnections,
            stalledReaderTimeout: stalledReaderTimeout, maxPendingReplyBytes: maxPendingReplyBytes)
        server = RPCServer(service: service, configuration: configuration)
    }

    /// Starts the server, runs `body`, and shuts the server down whether `body` throws or not.
    func serving(_ body: () async throws -> Void) async throws {
        try await server.start()
        do {
            try await body()
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// The started server's TCP port.
    func port() async throws -> Int {
        try #require(await server.tcpPort)
    }

    /// `http://127.0.0.1:PORT/jsonrpc`.
    func url(_ suffix: String = "") async throws -> String {
        "http://127.0.0.1:\(try await port())/jsonrpc\(suffix)"
    }
}
