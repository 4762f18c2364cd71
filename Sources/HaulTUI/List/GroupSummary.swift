import HaulCore

/// A group's figures for its row, from its tasks: how many are done, progress over the tasks whose size is known,
/// summed speed, and one state. A pure value; the view model, the sort and the reducer read the same one.
public struct GroupSummary: Sendable, Equatable {
    public var count: Int
    public var completed: Int
    public var state: TaskState
    /// Bytes received of the tasks whose total is known (a completed task counts whole).
    public var done: Int64 { Int64(clamping: doneSum) }
    /// The summed totals of the tasks whose total is known; nil when none is.
    public var total: Int64? { knownTasks > 0 ? Int64(clamping: knownTotal) : nil }
    /// Summed speed of the running tasks with a sample; nil when none has one.
    public var speed: Double? { sampledTasks > 0 ? speedSum : nil }
    // Summed wider than a size: each task's is at most `StatedSize.limit` (2^62), and a lying server's two such files
    // in one group would overflow an Int64 sum. Added and taken away exactly; shown clamped.
    private var doneSum: Int128 = 0
    private var knownTotal: Int128 = 0
    private var knownTasks = 0
    private var speedSum = 0.0
    private var sampledTasks = 0

    /// The figures of the tasks at `members` (indices into `rows`).
    public init(rows: [QueueSnapshot.Row], members: [Int]) {
        count = members.count
        completed = 0
        state = Self.state(of: members.lazy.map { rows[$0].task.state })
        for index in members { add(Share(rows[index])) }
    }

    /// What one task adds to its group's figures.
    public struct Share: Sendable, Equatable {
        var completed = false
        var done: Int64 = 0
        /// Its size, when known.
        var total: Int64?
        /// Its speed, when it runs and has a sample.
        var speed: Double?

        public init(_ row: QueueSnapshot.Row) {
            let received = max(0, row.bytesReceived)
            if row.task.state == .completed {
                completed = true
                let size = row.task.totalBytes ?? received
                (done, total) = (size, size)
            } else if let size = row.task.totalBytes, size > 0 {
                (done, total) = (min(received, size), size)
            }
            if row.task.state == .running { speed = row.speed }
        }
    }

    /// A task's share changed from `old` to `new` (its live figures moved; its state, which sets `state`, did not).
    public mutating func replace(_ old: Share, with new: Share) {
        guard old != new else { return }
        remove(old)
        add(new)
    }

    private mutating func add(_ share: Share) {
        if share.completed { completed += 1 }
        doneSum += Int128(share.done)
        if let total = share.total { (knownTotal, knownTasks) = (knownTotal + Int128(total), knownTasks + 1) }
        if let speed = share.speed { (speedSum, sampledTasks) = (speedSum + speed, sampledTasks + 1) }
    }

    private mutating func remove(_ share: Share) {
        if share.completed { completed -= 1 }
        doneSum -= Int128(share.done)
        if let total = share.total { (knownTotal, knownTasks) = (knownTotal - Int128(total), knownTasks - 1) }
        if let speed = share.speed {
            sampledTasks -= 1
            // Back to exactly nothing when no sample is left, whatever the rounding of the sums before.
            speedSum = sampledTasks == 0 ? 0 : speedSum - speed
        }
    }

    /// Running if any task runs, else waiting if any waits; else failed if any failed, paused if any is paused, and
    /// completed when all are.
    public static func state(of states: some Sequence<TaskState>) -> TaskState {
        var seen: Set<TaskState> = []
        for state in states { seen.insert(state) }
        for state: TaskState in [.running, .waiting, .failed, .paused] where seen.contains(state) { return state }
        return .completed
    }

    /// How far along, 0…1; nil when no size is known.
    public var fraction: Double? {
        if state == .completed { return 1 }
        guard let total, total > 0 else { return nil }
        return min(1, Double(done) / Double(total))
    }

    /// Seconds left at the summed speed, when the sizes are known and it moves.
    public var eta: Double? {
        guard state == .running, let total, let speed, speed > 0 else { return nil }
        return Double(max(0, total - done)) / speed
    }
}
