/// Pausing every task: one store write for the whole queue, however long it is.
extension DownloadController {
    /// Pauses every running and waiting task it holds. A waiting task with nothing in `runtime` (no attempt, back-off
    /// or setting of its own) changes only its state: those are written in one statement, not a whole row each, and
    /// told in one event (`ControllerEvent.many`), not one each.
    func pauseEveryTask() -> CommandResult {
        var idle: [TaskID] = []
        var others: [TaskID] = []
        for task in tasks.values where task.state == .running || task.state == .waiting {
            if task.state == .waiting, runtime.byID[task.id] == nil { idle.append(task.id) } else { others.append(task.id) }
        }
        for id in others { _ = pause(id) }
        // Written with the next flush when the store fails now: the queue goes on in memory.
        let written = attempt({ try store.markPaused(idle) }) != nil
        _ = apply(TaskLifecycle.pause, to: idle, written: written)
        if !idle.isEmpty { announce(.many(BulkChange(.paused, ids: idle.sorted()))) }
        return .changed(idle.count + others.count)
    }

    /// Pauses every waiting or running task in the store, reading none (a controller that only edits the queue and
    /// has not read it: no process transfers, so nothing is in flight and nobody is told).
    func pauseEveryStoredTask() -> CommandResult {
        guard let count = attempt({ try store.pauseEveryTask() }) else { return storeFailure }
        return .changed(count)
    }
}
