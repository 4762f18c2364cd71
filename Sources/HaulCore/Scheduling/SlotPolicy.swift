/// Decides which waiting tasks fill the free transfer slots: pure, so it is tested without concurrency.
public enum SlotPolicy {
    /// The ids of the waiting tasks to start now, in queue order.
    ///
    /// `waiting` holds the waiting tasks' queue positions and `running` how many run now. At most
    /// `maxRunning - running` are chosen, by ascending position (ties by id). A task in `backingOff` whose
    /// retry time is later than `now` is skipped, and the tasks after it may take its slot. Paused, failed
    /// and completed tasks are never in `waiting`, so they never start here.
    public static func tasksToStart(
        waiting: [TaskID: Int64], running: Int, maxRunning: Int, backingOff: [TaskID: ContinuousClock.Instant],
        now: ContinuousClock.Instant
    ) -> [TaskID] {
        let free = maxRunning - running
        guard free > 0 else { return [] }
        var ready: [(id: TaskID, position: Int64)] = []
        ready.reserveCapacity(waiting.count)
        for (id, position) in waiting {
            if let retryAt = backingOff[id], retryAt > now { continue }
            ready.append((id, position))
        }
        let inQueueOrder: ((id: TaskID, position: Int64), (id: TaskID, position: Int64)) -> Bool = {
            ($0.position, $0.id) < ($1.position, $1.id)
        }
        // One slot frees at a time as tasks finish: pick the first without sorting the whole queue.
        if free == 1 { return ready.min(by: inQueueOrder).map { [$0.id] } ?? [] }
        ready.sort(by: inQueueOrder)
        return ready.prefix(free).map(\.id)
    }
}
