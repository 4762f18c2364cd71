/// Decides which waiting tasks fill the free transfer slots: pure, so it is tested without concurrency.
public enum SlotPolicy {
    /// The ids of the waiting tasks to start now, in queue order.
    ///
    /// At most `maxRunning` minus the tasks already `running` are chosen, taking `waiting` tasks by ascending
    /// `position` (ties by id). A task in `backingOff` whose retry time is later than `now` is skipped, and
    /// the tasks after it may take its slot. Paused, failed and completed tasks never start here.
    public static func tasksToStart(
        tasks: [(id: TaskID, state: TaskState, position: Int64)],
        maxRunning: Int,
        backingOff: [TaskID: ContinuousClock.Instant],
        now: ContinuousClock.Instant
    ) -> [TaskID] {
        let running = tasks.reduce(0) { $0 + ($1.state == .running ? 1 : 0) }
        let free = maxRunning - running
        guard free > 0 else { return [] }
        return tasks
            .filter { task in
                guard task.state == .waiting else { return false }
                if let retryAt = backingOff[task.id], retryAt > now { return false }
                return true
            }
            .sorted { ($0.position, $0.id) < ($1.position, $1.id) }
            .prefix(free)
            .map(\.id)
    }
}
