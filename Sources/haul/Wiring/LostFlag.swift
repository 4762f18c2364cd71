import HaulCore

/// Set once, from any thread, when the owner stops answering: the pid it last had.
final class LostFlag: Sendable {
    private let flag = PthreadMutex<Int32?>(nil)
    func set(_ pid: Int32) { flag.withLock { $0 = $0 ?? pid } }
    var pid: Int32? { flag.withLock { $0 } }
}
