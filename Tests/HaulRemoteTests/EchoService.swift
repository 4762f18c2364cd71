import HaulCore
import HaulRemote

/// The dispatcher's stand-in for transport tests: answers every body with itself, and pushes notifications on demand.
///
/// A body containing `token:wrong` is answered as aria2 answers a bad secret (400, `unauthorized`); one containing
/// `token:right` shows the secret (`authorized`).
/// A body that is exactly `notification` gets no reply body (as a JSON-RPC notification would);
/// one that is exactly `slow` is answered after three seconds; `large:N` is answered with N bytes of `x`.
final class EchoService: RPCService {
    static let unauthorizedBody = Array(#"{"id":"1","jsonrpc":"2.0","error":{"code":1,"message":"Unauthorized"}}"#.utf8)

    private struct State {
        var subscribers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
        var nextID = 0
        var callers: [RPCCaller] = []
    }

    private let state = PthreadMutex(State())

    func answer(_ body: [UInt8], from caller: RPCCaller) async -> RPCReply {
        state.withLock { $0.callers.append(caller) }
        let text = String(decoding: body, as: UTF8.self)
        if text.contains("token:wrong") {
            return RPCReply(body: Self.unauthorizedBody, httpStatus: 400, unauthorized: true)
        }
        if text == "notification" { return RPCReply(body: nil) }
        if text == "slow" { try? await Task.sleep(for: .seconds(3)) }
        if text.hasPrefix("large:"), let size = Int(text.dropFirst("large:".count)) {
            return RPCReply(body: [UInt8](repeating: UInt8(ascii: "x"), count: size))
        }
        return RPCReply(body: body, authorized: caller.transport == .localSocket || text.contains("token:right"))
    }

    func notifications() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `message` to every open notification stream.
    func push(_ message: String) {
        let continuations = state.withLock { Array($0.subscribers.values) }
        for continuation in continuations { continuation.yield(Array(message.utf8)) }
    }

    /// How many notification streams are open (one per connected WebSocket client).
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The transports of every request answered so far.
    var callers: [RPCCaller] { state.withLock { $0.callers } }
}
