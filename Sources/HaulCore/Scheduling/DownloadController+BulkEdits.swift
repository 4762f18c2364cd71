/// Resuming and removing every task (or every task in one state): a few store writes for the whole queue, however
/// long it is, and the queue never read whole by a controller that has not read it.
extension DownloadController {
    /// Tasks a command for every task reads from the store at once.
    static let bulkPage = 500

    /// Resumes every task a resume applies to (in `only`, when given). A paused or failed task with nothing in
    /// `runtime` changes only its state, attempts and error: those are written in one call. A finished live recording
    /// (which starts a new part) and a task with runtime state go through `resume` one by one.
    func resumeEveryTask(only: TaskState?) -> CommandResult {
        var idle: [TaskID] = []
        var others: [TaskID] = []
        for task in tasks.values where (only == nil || task.state == only) && TaskLifecycle.resumes(task) {
            let plain = task.state != .completed && runtime.byID[task.id] == nil
            if plain { idle.append(task.id) } else { others.append(task.id) }
        }
        // Started by hand, as `resume` of each: they run even outside the schedule's run windows.
        if scheduleHolds { for id in idle + others { runtime[id].startedByHand = true } }
        let resumedOneByOne = others.filter { resume($0) == .done }.count
        let written = attempt({ try store.markResumed(idle) }) != nil
        return .changed(resumedOneByOne + apply(TaskLifecycle.resume, to: idle, written: written))
    }

    /// Carries a change the store already wrote for `ids` in one call (`written`) into the tasks held, or, when that
    /// write failed, saves each changed task with the next flush; how many it changed.
    func apply(_ change: (DownloadTask) -> DownloadTask?, to ids: [TaskID], written: Bool) -> Int {
        var changed = 0
        for id in ids {
            guard let task = tasks[id], let new = change(task) else { continue }
            if written { tasks[id] = new } else { save(new) }
            changed += 1
        }
        return changed
    }

    /// Resumes every paused and failed task in the store (those in `only`, when given) in one statement, and the
    /// finished live recordings a page at a time (a controller that only edits the queue and has not read it).
    func resumeEveryStoredTask(only: TaskState?) -> CommandResult {
        let states: [TaskState] = [.paused, .failed].filter { only == nil || $0 == only }
        var changed = 0
        if !states.isEmpty {
            guard let count = attempt({ try store.resumeEveryTask(in: states) }) else { return storeFailure }
            changed = count
        }
        guard only == nil || only == .completed else { return .changed(changed) }
        var after: TaskID?
        while true {
            guard let page = attempt({ try store.page(after: after, in: [.completed], kind: .live, limit: Self.bulkPage) })
            else { return storeFailure }
            guard let last = page.last else { return .changed(changed) }
            let resumed = page.compactMap(TaskLifecycle.resume)
            guard attempt({ try store.save(resumed) }) != nil else { return storeFailure }
            changed += resumed.count
            after = last.id
        }
    }

    /// Removes every task (those in `only`, when given) from the store in one call. A task the engine does not hold,
    /// with no part file lent by `-c`, leaves quietly (its part file deleted when asked, what the controller kept of
    /// it dropped) and is told in one event with the others; the rest as `remove` lets each go.
    func removeEveryTask(only: TaskState?, deleteFile: Bool) -> CommandResult {
        let chosen = tasks.values.lazy.filter { only == nil || $0.state == only }.map(\.id).sorted()
        guard !chosen.isEmpty else { return .changed(0) }
        guard attempt({ try store.delete(chosen) }) != nil else { return storeFailure }
        var quiet: [TaskID] = []
        var removed: [DownloadTask] = []
        for id in chosen {
            guard let task = tasks.removeValue(forKey: id) else { continue }
            guard !runtime.isInFlight(id), !task.holdsLentPart else {
                letGo(task, deleteFile: deleteFile)
                continue
            }
            runtime[id] = TaskRuntime()
            if deleteFile, task.state != .completed {
                driver.send(.deletePart(id, directory: task.directory, fileName: task.fileName))
            }
            quiet.append(id)
            if task.state != .completed, task.state != .failed { removed.append(task) }
            if removed.count == 2 * BulkChange.removedKept { removed.removeFirst(BulkChange.removedKept) }
        }
        if !quiet.isEmpty {
            announce(.many(BulkChange(.removed, ids: quiet, removed: Array(removed.suffix(BulkChange.removedKept)))))
        }
        return .changed(chosen.count)
    }

    /// Removes every task in the store (those in `only`, when given) a page at a time, each page's part files deleted
    /// or given back as `remove` does (a controller that only edits the queue and has not read it: nothing is in
    /// flight and nobody is told). At most a page of tasks is held at once.
    func removeEveryStoredTask(only: TaskState?, deleteFile: Bool) -> CommandResult {
        var removed = 0
        var after: TaskID?
        while true {
            guard let page = attempt({ try store.page(after: after, in: only.map { [$0] }, kind: nil, limit: Self.bulkPage) })
            else { return storeFailure }
            guard let last = page.last else { return .changed(removed) }
            guard attempt({ try store.delete(page.map(\.id)) }) != nil else { return storeFailure }
            for task in page {
                if task.holdsLentPart {
                    _ = giveBackLentPart(task)
                } else if deleteFile, task.state != .completed {
                    driver.send(.deletePart(task.id, directory: task.directory, fileName: task.fileName))
                }
            }
            removed += page.count
            after = last.id
        }
    }
}
