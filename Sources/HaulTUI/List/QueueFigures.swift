import HaulCore

/// What the header and the terminal title say of the whole queue: tasks per state (the waiting ones that back off
/// counted apart) and how far the queue is along. Worked out from every row of a snapshot, then moved by the rows
/// later snapshots patch (`ShownRowsCache.figures`), so a frame does not count the queue. A pure value.
public struct QueueFigures: Sendable, Equatable {
    public private(set) var running = 0
    /// Waiting tasks that are not backing off.
    public private(set) var waiting = 0
    /// Waiting tasks backing off until their retry.
    public private(set) var retrying = 0
    public private(set) var paused = 0
    public private(set) var failed = 0
    public private(set) var completed = 0
    /// How far the queue is along, summed over its tasks but the failed ones: a finished task counts 1, an
    /// unfinished one its share of its known size (none when unknown).
    public private(set) var progress = 0.0

    public init(rows: [QueueSnapshot.Row]) {
        for row in rows { add(Share(row)) }
    }

    /// The tasks the title's percent is over: all but the failed.
    public var counted: Int { running + waiting + retrying + paused + completed }

    /// True while the screen moves by itself: a transfer runs or a back-off counts down.
    public var isAnimating: Bool { running > 0 || retrying > 0 }

    /// What one task adds to the figures.
    public struct Share: Sendable, Equatable {
        var state: TaskState
        var isRetrying: Bool
        var progress: Double

        public init(_ row: QueueSnapshot.Row) {
            state = row.task.state
            isRetrying = row.task.state == .waiting && row.retryAt != nil
            if state == .completed {
                progress = 1
            } else if state != .failed, let size = row.task.totalBytes, size > 0 {
                progress = Double(min(max(0, row.bytesReceived), size)) / Double(size)
            } else {
                progress = 0
            }
        }
    }

    /// A task's share changed from `old` to `new`.
    public mutating func replace(_ old: Share, with new: Share) {
        guard old != new else { return }
        count(old, by: -1)
        count(new, by: 1)
    }

    private mutating func add(_ share: Share) { count(share, by: 1) }

    private mutating func count(_ share: Share, by step: Int) {
        switch share.state {
        case .running: running += step
        case .waiting: if share.isRetrying { retrying += step } else { waiting += step }
        case .paused: paused += step
        case .failed: failed += step
        case .completed: completed += step
        }
        progress += Double(step) * share.progress
        // Back to exactly nothing when no task is left to count, whatever the rounding of the sums before.
        if counted == 0 { progress = 0 }
    }
}
