import Synchronization

/// The latest queue snapshot, readable from any thread (the TUI's key loop polls it every tick).
public final class SnapshotBox: Sendable {
    private let latest: Mutex<QueueSnapshot>

    public init(_ initial: QueueSnapshot = QueueSnapshot()) { latest = Mutex(initial) }

    public func publish(_ snapshot: QueueSnapshot) { latest.withLock { $0 = snapshot } }

    public func read() -> QueueSnapshot { latest.withLock { $0 } }
}
