import Synchronization

/// Hands every controller event to every subscriber: the headless reporter, hook runners, remote clients.
/// Each subscriber has its own stream and buffer, so a slow one never takes events from another.
final class ControllerEventHub: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<ControllerEvent>.Continuation] = [:]
        var nextKey = 0
        var finished = false
    }

    private let state = Mutex(State())
    /// Events kept for a subscriber that does not keep up; older ones are dropped first.
    static let bufferLimit = 10_000

    /// A new stream of every event from now on; it ends when the controller's run ends.
    func subscribe() -> AsyncStream<ControllerEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: ControllerEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferLimit))
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

    func yield(_ event: ControllerEvent) {
        state.withLock { state in
            for continuation in state.subscribers.values { continuation.yield(event) }
        }
    }

    /// Ends every stream; later subscribers get an ended stream.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return state.subscribers
        }
        for continuation in subscribers.values { continuation.finish() }
    }
}
