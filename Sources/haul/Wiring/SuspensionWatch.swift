import Foundation
import HaulCore

/// Notices, once a second at most, that the owner was stopped by a signal: it can then answer nothing, and the
/// list would otherwise wait out several request timeouts before saying so.
final class SuspensionWatch: Sendable {
    private let state = PthreadMutex<(checked: ContinuousClock.Instant, suspended: Int32?)>((.now, nil))

    /// Whether `pid` is stopped; reads `/proc` at most once a second and remembers a stopped pid.
    func ownerSuspended(_ pid: Int32?) -> Bool {
        guard let pid else { return false }
        let due = state.withLock { state -> Bool in
            guard state.suspended == nil, ContinuousClock.now - state.checked >= .seconds(1) else { return false }
            state.checked = .now
            return true
        }
        if due, case .suspended = OwnerLoss.judge(pid: pid, socketPath: "") {
            state.withLock { $0.suspended = pid }
        }
        return suspendedPID != nil
    }

    var suspendedPID: Int32? { state.withLock { $0.suspended } }
}
