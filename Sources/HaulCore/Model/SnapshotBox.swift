/// The latest queue snapshot, readable from any thread (the TUI's key loop polls it every tick), and
/// awaitable: remote front ends wait for the next one instead of polling.
public final class SnapshotBox: Sendable {
    private enum Wait {
        /// Issued; its continuation is not registered yet.
        case starting
        /// Timed out before its continuation was registered.
        case expired
        case waiting(after: UInt64, CheckedContinuation<QueueSnapshot, Never>)
    }

    private struct State {
        var latest: QueueSnapshot
        var waits: [Int: Wait] = [:]
        var nextKey = 0
    }

    private let state: PthreadMutex<State>

    public init(_ initial: QueueSnapshot = QueueSnapshot()) { state = PthreadMutex(State(latest: initial)) }

    public func publish(_ snapshot: QueueSnapshot) {
        let ready = state.withLock { state in
            state.latest = snapshot
            var ready: [CheckedContinuation<QueueSnapshot, Never>] = []
            for (key, wait) in state.waits {
                guard case let .waiting(after, continuation) = wait, snapshot.sequence > after else { continue }
                state.waits[key] = nil
                ready.append(continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: snapshot) }
    }

    public func read() -> QueueSnapshot { state.withLock { $0.latest } }

    /// The first snapshot with a sequence above `sequence`: at once when there is one, else when it is
    /// published, or the latest one after `timeout`.
    public func next(after sequence: UInt64, timeout: Duration) async -> QueueSnapshot {
        let key: Int? = state.withLock { state in
            guard state.latest.sequence <= sequence else { return nil }
            defer { state.nextKey += 1 }
            state.waits[state.nextKey] = .starting
            return state.nextKey
        }
        guard let key else { return read() }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire(key)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answerNow: QueueSnapshot? = state.withLock { state in
                // Published since the check, or already timed out: answer at once.
                if state.latest.sequence > sequence || { if case .expired = state.waits[key] { true } else { false } }() {
                    state.waits[key] = nil
                    return state.latest
                }
                state.waits[key] = .waiting(after: sequence, continuation)
                return nil
            }
            if let answerNow { continuation.resume(returning: answerNow) }
        }
    }

    private func expire(_ key: Int) {
        let expired: (CheckedContinuation<QueueSnapshot, Never>, QueueSnapshot)? = state.withLock { state in
            switch state.waits[key] {
            case .starting:
                state.waits[key] = .expired
                return nil
            case let .waiting(_, continuation):
                state.waits[key] = nil
                return (continuation, state.latest)
            case .expired, nil:
                return nil
            }
        }
        if let (continuation, latest) = expired { continuation.resume(returning: latest) }
    }
}
