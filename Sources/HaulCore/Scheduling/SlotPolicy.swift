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

    /// The plan for `waiting` tasks (in queue order: `WaitingLine`) and `running` tasks (their positions by id) under
    /// `maxRunning`. A task in `backingOff` whose retry time is later than `now` is skipped; the tasks after it may
    /// take its slot. Reads the line only as far as a task could still start: the free slots' worth of ready tasks,
    /// then those queued before a running task.
    public static func plan(
        waiting: some Sequence<(id: TaskID, waiting: Waiting)>, running: [TaskID: Int64], maxRunning: Int,
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
        var slots = limit - keep.count
        for (id, task) in waiting {
            let entry = Entry(id: id, position: task.position)
            // In queue order: once no slot is free and this task is behind every running one, so are the rest.
            if slots == 0, keep.first.map({ entry < $0 }) != true { break }
            if let retryAt = backingOff[id], retryAt > now { continue }
            if slots > 0 {
                slots -= 1
                plan.start.append(id)
            } else if task.mayPreempt, let last = keep.first {
                keep.removeFirst()
                plan.requeue.append(last.id)
                plan.start.append(id)
            }
        }
        return plan
    }

    /// A task's place in the queue.
    struct Entry: Comparable, Sendable {
        var id: TaskID
        var position: Int64

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.position, lhs.id) < (rhs.position, rhs.id) }
    }
}
