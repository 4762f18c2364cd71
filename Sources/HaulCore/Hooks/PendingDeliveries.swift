import Dispatch

/// Counts notifications still on their way (a `notify-send` that has not exited), so a run can wait for them
/// before it ends: a process that exits first loses the last ones (issue 28 §4).
///
/// Shared by every copy of one `DesktopNotification`; the count and the waiters live behind a lock, and any
/// thread may call it (`notify-send`'s termination handler runs on Foundation's own thread).
public final class PendingDeliveries: Sendable {
    private struct State {
        var pending = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
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
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until none is on its way, or `timeout` has passed; returns whether all arrived.
    ///
    /// The timeout is a dispatch timer, not a task: a process ending while the cooperative pool is busy still
    /// stops waiting on time.
    @discardableResult
    public func waitForAll(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let key = state.withLock { state -> Int? in
                guard state.pending > 0 else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = waiter
                return state.nextWaiter
            }
            guard let key else { return waiter.resume() }
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) { [self] in
                state.withLock { $0.waiters.removeValue(forKey: key) }?.resume()
            }
        }
        return count == 0
    }
}
