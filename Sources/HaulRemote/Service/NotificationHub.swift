import Synchronization

/// Hands every encoded notification to every WebSocket client; each has its own stream and buffer.
final class NotificationHub: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<[UInt8]>.Continuation]>([:])
    private let nextKey = Atomic<Int>(0)

    func subscribe() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(1000))
        let key = nextKey.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: key) }
        }
        return stream
    }

    func send(_ message: [UInt8]) {
        subscribers.withLock { subscribers in
            for continuation in subscribers.values { continuation.yield(message) }
        }
    }
}
