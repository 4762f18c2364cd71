import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Calls the owner over its Unix control socket: one HTTP/1.1 `POST /jsonrpc` per call, on a fresh connection.
///
/// The attached list and the CLI commands use it. A missing socket, or a stale one that nobody listens on,
/// fails at once with `RemoteClientError.noOwner`; every call is bounded by `timeout`.
public struct RemoteClient: Sendable {
    /// The owner's socket, `$STATE/haul.sock`.
    public let socketPath: String
    /// Longest wait for connecting, sending and reading the whole answer.
    public var timeout: Duration
    /// Largest answer accepted, in bytes.
    public var maxResponseBytes: Int
    private let group: any EventLoopGroup

    /// - Parameter group: the event loops connections run on; the process-wide NIO group unless given.
    public init(
        socketPath: String, timeout: Duration = .seconds(5), maxResponseBytes: Int = 64 << 20,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.group = group
    }

    /// Sends one JSON-RPC request body and returns the HTTP status and the answer's body.
    public func post(_ body: [UInt8]) async throws(RemoteClientError) -> (status: Int, body: [UInt8]) {
        let channel = try await connect()
        let path = socketPath
        let limit = maxResponseBytes
        do {
            return try await withDeadline(timeout, onExpiry: { channel.channel.close(promise: nil) }) {
                try await HTTPExchange.post(body, over: channel, maxResponseBytes: limit)
            }
        } catch is DeadlinePassed {
            throw .timedOut(path: path, after: timeout)
        } catch let error as HTTPExchange.Failure {
            throw .badResponse(path: path, reason: error.description)
        } catch {
            throw .badResponse(path: path, reason: String(describing: error))
        }
    }

    /// Calls `method` with `params` (encoded as a JSON array or object) and returns the JSON-RPC answer's text.
    ///
    /// The answer is returned whatever its HTTP status: a JSON-RPC error comes with 400 or 404 as in aria2.
    public func call<Params: Encodable & Sendable>(method: String, params: Params) async throws -> [UInt8] {
        let body = try JSONEncoder().encode(JSONRPCRequest(method: method, params: params))
        return try await post(Array(body)).body
    }

    private func connect() async throws(RemoteClientError) -> NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart> {
        let path = socketPath
        do {
            return try await ClientBootstrap(group: group)
                .connectTimeout(TimeAmount(timeout))
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError where [ECONNREFUSED, ENOENT].contains(error.errnoCode) {
            throw .noOwner(path: path)
        } catch ChannelError.connectTimeout {
            throw .timedOut(path: path, after: timeout)
        } catch {
            throw .cannotConnect(path: path, reason: String(describing: error))
        }
    }
}

/// Runs `body`; after `timeout`, calls `onExpiry` (which must make `body` finish, e.g. by closing its channel)
/// and throws `RemoteClientError.timedOut`.
private func withDeadline<Result: Sendable>(
    _ timeout: Duration, onExpiry: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    try await withThrowingTaskGroup(of: Result?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let result = first else {
            onExpiry()
            throw DeadlinePassed()
        }
        return result
    }
}

/// The timer of `withDeadline` won.
struct DeadlinePassed: Error {}

/// A JSON-RPC 2.0 request as `RemoteClient.call` sends it.
struct JSONRPCRequest<Params: Encodable>: Encodable {
    var jsonrpc = "2.0"
    var id = "haul"
    var method: String
    var params: Params
}
