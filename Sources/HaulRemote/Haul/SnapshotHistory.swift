import HaulCore

/// The last few snapshots the socket served to attached lists (callers that ask for deltas), so the next answer
/// to one can be a delta from the one it holds (`QueueSnapshotDelta`) instead of every row again. A plain
/// `haul list` or an RPC page never lands here: each snapshot held keeps a copy of every row.
final class SnapshotHistory: Sendable {
    /// Enough for a few attached lists a snapshot or two behind; each holds the queue's rows.
    static let capacity = 4
    private let recent = PthreadMutex<[QueueSnapshot]>([])

    func record(_ snapshot: QueueSnapshot) {
        recent.withLock { recent in
            guard !recent.contains(where: { $0.sequence == snapshot.sequence }) else { return }
            recent.append(snapshot)
            if recent.count > Self.capacity { recent.removeFirst(recent.count - Self.capacity) }
        }
    }

    /// How many snapshots it holds.
    var count: Int { recent.withLock(\.count) }

    func snapshot(sequence: UInt64) -> QueueSnapshot? {
        recent.withLock { recent in recent.first { $0.sequence == sequence } }
    }
}

/// The answer to `haul.snapshot` with `delta`: a whole snapshot, or what changed since the one the
/// caller holds; to a caller that reads whole snapshots by pages (`pages`), the latest one's sequence instead of it.
public struct SnapshotAnswer: Sendable, Codable {
    public var full: QueueSnapshot?
    public var delta: QueueSnapshotDelta?
    /// The latest snapshot's sequence, when neither `full` nor `delta` is sent: its rows are to be read by pages.
    public var sequence: UInt64?

    public init(full: QueueSnapshot? = nil, delta: QueueSnapshotDelta? = nil, sequence: UInt64? = nil) {
        self.full = full
        self.delta = delta
        self.sequence = sequence
    }
}
