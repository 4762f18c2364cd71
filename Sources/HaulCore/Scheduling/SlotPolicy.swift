/// Decides which tasks hold the transfer slots: pure, so it is tested without concurrency.
///
/// Queue order decides. Free slots go to the first ready waiting tasks (by `position`, ties by id). A
/// waiting task that the user put ahead (resumed, retried or moved up: `mayPreempt`) also takes the slot
/// of a running task queued after it; that task goes back to waiting and resumes from its bytes later.
/// A task coming back from a retry's back-off only fills free slots, so a failing task cannot make
/// healthy ones stop and start. When the limit went down, the last running tasks go back to waiting.
public enum SlotPolicy {
    /// A waiting task as the policy sees it.
    public struct Waiting: Sendable, Equatable {
        public var position: Int64
        /// Whether it may take the slot of a running task queued after it.
        public var mayPreempt: Bool

        public init(position: Int64, mayPreempt: Bool) {
            self.position = position
            self.mayPreempt = mayPreempt
        }
    }

    /// What to change now.
    public struct Plan: Sendable, Equatable {
        /// Waiting tasks to start, in queue order.
        public var start: [TaskID] = []
        /// Running tasks to put back in line (their transfers stop with their bytes kept).
        public var requeue: [TaskID] = []

        public init(start: [TaskID] = [], requeue: [TaskID] = []) {
            self.start = start
            self.requeue = requeue
        }
    }

    /// The plan for `waiting` tasks (by id) and `running` tasks (their positions by id) under `maxRunning`.
    /// A task in `backingOff` whose retry time is later than `now` is skipped; the tasks after it may take its slot.
    public static func plan(
        waiting: [TaskID: Waiting], running: [TaskID: Int64], maxRunning: Int,
        backingOff: [TaskID: ContinuousClock.Instant], now: ContinuousClock.Instant
    ) -> Plan {
        let limit = max(0, maxRunning)
        var plan = Plan()
        // Running tasks from last to first in queue order: the first to give up a slot.
        var keep = running.map { Entry(id: $0.key, position: $0.value) }.sorted(by: >)
        if keep.count > limit {
            plan.requeue = keep.prefix(keep.count - limit).map(\.id)
            keep.removeFirst(keep.count - limit)
        }
        let free = limit - keep.count
        let latestRunning = keep.first
        var ready: [(entry: Entry, mayPreempt: Bool)] = []
        ready.reserveCapacity(waiting.count)
        for (id, task) in waiting {
            if let retryAt = backingOff[id], retryAt > now { continue }
            let entry = Entry(id: id, position: task.position)
            let canPreempt = task.mayPreempt && latestRunning.map { entry < $0 } == true
            if free == 0, !canPreempt { continue }
            ready.append((entry, canPreempt))
        }
        guard !ready.isEmpty else { return plan }
        // Usually one slot is free and nothing can preempt: pick the first without sorting the whole queue.
        if free == 1, !ready.contains(where: \.mayPreempt), let first = ready.min(by: { $0.entry < $1.entry }) {
            plan.start = [first.entry.id]
            return plan
        }
        ready.sort { $0.entry < $1.entry }
        var slots = free
        for candidate in ready {
            if slots > 0 {
                slots -= 1
                plan.start.append(candidate.entry.id)
            } else if candidate.mayPreempt, let last = keep.first, candidate.entry < last {
                keep.removeFirst()
                plan.requeue.append(last.id)
                plan.start.append(candidate.entry.id)
            }
        }
        return plan
    }

    /// A task's place in the queue.
    struct Entry: Comparable {
        var id: TaskID
        var position: Int64

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.position, lhs.id) < (rhs.position, rhs.id) }
    }
}
