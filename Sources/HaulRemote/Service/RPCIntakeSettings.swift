import HaulCore

/// The intake and the run's settings RPC clients add tasks with and read; replaced as a whole when the
/// settings file is read again (`haul config --reload`), so a call sees either the old or the new pair.
final class RPCIntakeSettings: Sendable {
    struct Pair: Sendable {
        var intake: TaskIntake
        var runOptions: Aria2RunOptions
    }

    private let pair: PthreadMutex<Pair>

    init(_ pair: Pair) {
        self.pair = PthreadMutex(pair)
    }

    func read() -> Pair { pair.withLock { $0 } }

    func replace(_ new: Pair) { pair.withLock { $0 = new } }
}
