/// Hands every element to every subscriber, each with its own stream and buffer, so a slow one never
/// takes elements from another: controller events for the reporter, hooks and RPC; notifications for
/// each WebSocket client.
public final class Broadcast<Element: Sendable>: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextKey = 0
        var finished = false
    }

    private let state = PthreadMutex(State())
    /// Elements kept for a subscriber that does not keep up; older ones are dropped first.
    private let bufferLimit: Int

    public init(bufferLimit: Int) { self.bufferLimit = bufferLimit }

    /// A new stream of every element from now on; it ends with `finish()`.
    public func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let key: Int? = state.withLock { state in
            guard !state.finished else { return nil }
            defer { state.nextKey += 1 }
            state.subscribers[state.nextKey] = continuation
            return state.nextKey
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Whether anybody listens now (so an element that is costly to make can be skipped).
    public var hasSubscribers: Bool { state.withLock { !$0.subscribers.isEmpty } }

    public func yield(_ element: Element) {
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.yield(element) }
        }
    }

    /// Ends every stream; later subscribers get an ended stream.
    public func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return state.subscribers
        }
        for continuation in subscribers.values { continuation.finish() }
    }
}
