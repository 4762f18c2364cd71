import HaulCore

/// A group's figures for its row, from its tasks: how many are done, progress over the tasks whose size is known,
/// summed speed, and one state. A pure value; the view model, the sort and the reducer read the same one.
public struct GroupSummary: Sendable, Equatable {
    public var count: Int
    public var completed: Int
    public var state: TaskState
    /// Bytes received of the tasks whose total is known (a completed task counts whole).
    public var done: Int64
    /// The summed totals of the tasks whose total is known; nil when none is.
    public var total: Int64?
    /// Summed speed of the running tasks with a sample; nil when none has one.
    public var speed: Double?

    /// The figures of the tasks at `members` (indices into `rows`).
    public init(rows: [QueueSnapshot.Row], members: [Int]) {
        var done: Int64 = 0
        var total: Int64 = 0
        var known = false
        var speed: Double?
        var completed = 0
        for index in members {
            let row = rows[index]
            let received = max(0, row.bytesReceived)
            if row.task.state == .completed {
                completed += 1
                let size = row.task.totalBytes ?? received
                done += size
                total += size
                known = true
            } else if let size = row.task.totalBytes, size > 0 {
                done += min(received, size)
                total += size
                known = true
            }
            if row.task.state == .running, let rate = row.speed { speed = (speed ?? 0) + rate }
        }
        self.count = members.count
        self.completed = completed
        self.done = done
        self.total = known ? total : nil
        self.speed = speed
        self.state = Self.state(of: members.lazy.map { rows[$0].task.state })
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
