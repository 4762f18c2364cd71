/// Counts notifications still on their way (a `notify-send` that has not exited), so a run can wait for them
/// before it ends: a process that exits first loses the last ones (issue 28 §4).
///
/// Shared by every copy of one `DesktopNotification`; the count and the waiters live behind a lock, and any
/// thread may call it (`notify-send`'s termination handler runs on Foundation's own thread).
public final class PendingDeliveries: Sendable {
    private struct State {
        var pending = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = PthreadMutex(State())

    public init() {}

    /// How many are on their way now.
    public var count: Int { state.withLock { $0.pending } }

    /// One more is on its way.
    func started() {
        state.withLock { $0.pending += 1 }
    }

    /// One has arrived (or given up); the last one wakes those waiting.
    func ended() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending <= 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until none is on its way, or `timeout` has passed; returns whether all arrived.
    @discardableResult
    public func waitForAll(timeout: Duration) async -> Bool {
        let timer = Task { [self] in
            try? await Task.sleep(for: timeout)
            releaseWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.pending > 0 else { return true }
                state.waiters.append(waiter)
                return false
            }
            if done { waiter.resume() }
        }
        return count == 0
    }

    private func releaseWaiters() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
