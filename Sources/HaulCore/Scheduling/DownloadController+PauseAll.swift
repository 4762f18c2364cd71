/// Pausing every task: one store write for the whole queue, however long it is.
extension DownloadController {
    /// Pauses every running and waiting task it holds. A waiting task with nothing in `runtime` (no attempt, back-off
    /// or setting of its own) changes only its state: those are written in one statement, not a whole row each.
    func pauseEveryTask() -> CommandResult {
        var idle: [DownloadTask] = []
        var count = 0
        for task in tasks.values where task.state == .running || task.state == .waiting {
            count += 1
            guard task.state == .waiting, runtime.byID[task.id] == nil, let paused = TaskLifecycle.pause(task) else {
                _ = pause(task.id)
                continue
            }
            idle.append(paused)
        }
        // Written with the next flush when the store fails now: the queue goes on in memory.
        if attempt({ try store.markPaused(idle.map(\.id)) }) == nil {
            for task in idle { save(task) }
        }
        for task in idle {
            tasks[task.id] = task
            announce(.paused(task))
        }
        return .changed(count)
    }

    /// Pauses every waiting or running task in the store, reading none (a controller that only edits the queue and
    /// has not read it: no process transfers, so nothing is in flight and nobody is told).
    func pauseEveryStoredTask() -> CommandResult {
        guard let count = attempt({ try store.pauseEveryTask() }) else { return storeFailure }
        return .changed(count)
    }
}
