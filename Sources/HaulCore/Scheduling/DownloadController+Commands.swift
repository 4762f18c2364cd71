import Foundation

extension DownloadController {
    /// Carries out a user's request from any front end and says how it went.
    @discardableResult
    public func perform(_ command: QueueCommand) -> CommandResult {
        perform([command])[0]
    }

    /// Carries out several requests as one batch: slots are filled once, after all of them.
    @discardableResult
    public func perform(_ commands: [QueueCommand]) -> [CommandResult] {
        // A controller that only edits the queue pauses, resumes or removes every task in the store, without
        // reading the queue.
        if isRunning || commands.count != 1 || !commands[0].editsStoreAlone { loadIfNeeded() }
        // A task another shell added to the database a moment ago (it found no socket yet, as this run
        // started) is known before a command about it is refused, also before the queue runs.
        if commands.contains(where: { $0.taskID.map { tasks[$0] == nil } ?? false }) {
            reconcileExternalChanges()
        }
        let results = commands.map(carryOut)
        pacer.rowsDidChange()
        fillSlots()
        publish()
        // A command for every task may have emptied the indexes of 100,000 tasks: their room and pages go back.
        if isLoaded, commands.contains(where: \.editsStoreAlone) {
            tasks.compact()
            runtime.compact()
            FreedMemory.giveBack()
        }
        stopIfIdle()
        return results
    }

    private func carryOut(_ command: QueueCommand) -> CommandResult {
        switch command {
        case let .add(newTasks):
            return add(newTasks)
        case let .pause(id):
            runtime[id].startedByHand = false
            return pause(id)
        case let .resume(id):
            // Started by hand: it runs even outside the schedule's run windows.
            if scheduleHolds { runtime[id].startedByHand = true }
            return resume(id)
        case .pauseAll:
            return isLoaded ? pauseEveryTask() : pauseEveryStoredTask()
        case let .resumeAll(only):
            return isLoaded ? resumeEveryTask(only: only) : resumeEveryStoredTask(only: only)
        case let .removeAll(only, deleteFile):
            return isLoaded ? removeEveryTask(only: only, deleteFile: deleteFile)
                : removeEveryStoredTask(only: only, deleteFile: deleteFile)
        case .startAll:
            for task in tasks.values.sorted(by: { $0.position < $1.position })
            where task.state == .paused || task.state == .failed {
                if scheduleHolds { runtime[task.id].startedByHand = true }
                _ = resume(task.id)
            }
            return .done
        case let .remove(id, deleteFile):
            return remove(id, deleteFile: deleteFile)
        case let .move(id, offset):
            guard let task = tasks[id] else { return .unknownTask(id) }
            guard task.state.isUnfinished else { return .notAllowed(id, state: task.state) }
            return move(id, by: offset)
        case let .setOverallLimit(limit):
            configuration.overallLimit = limit
            driver.send(.setOverallLimit(effectiveOverallLimit))
            return .done
        case let .setSchedule(schedule):
            return setSchedule(schedule)
        case let .suspendSchedule(suspend):
            return suspendSchedule(suspend)
        case let .setTaskLimit(id, limit):
            guard let task = tasks[id] else { return .unknownTask(id) }
            guard task.state.isUnfinished else { return .notAllowed(id, state: task.state) }
            runtime[id].rate = RateOverride(setting: limit)
            if runtime.isInFlight(id) { driver.send(.setTaskLimit(id, limit?.bytesPerSecond)) }
            return .done
        case let .setURL(id, url, change):
            return setURL(id, url, change: change)
        case let .setMirrors(id, mirrors):
            return setMirrors(id, mirrors)
        case let .setTaskConnections(id, count):
            guard let task = tasks[id] else { return .unknownTask(id) }
            guard task.state.isUnfinished else { return .notAllowed(id, state: task.state) }
            let split = SplitLimit.clamped(count)
            runtime[id].split = split
            if runtime.isInFlight(id) { driver.send(.setTaskConnections(id, split)) }
            return .done
        case let .setMaxConcurrent(value):
            configuration.maxConcurrent = ConcurrencyLimit.clamped(value)
            attempt { try store.saveMaxConcurrent(configuration.maxConcurrent) }
            return .done
        }
    }

    /// The id of completed `task` when its file is still at its path with its size (else nil: fetch it again).
    private static func fileIsIntact(_ task: DownloadTask) -> TaskID? {
        guard let name = task.fileName,
              let size = (try? FileManager.default.attributesOfItem(atPath: PathJoin.join(task.directory, name)))?[.size] as? Int64
        else { return nil }
        return size == (task.totalBytes ?? task.bytesDone) ? task.id : nil
    }

    /// Moves a task `offset` places in the queue; the positions of its neighbours are read back.
    private func move(_ id: TaskID, by offset: Int) -> CommandResult {
        guard offset != 0 else { return .done }
        guard attempt({ try store.move(id, by: offset) }) != nil else { return storeFailure }
        if let all = attempt({ try store.loadAll() }) {
            for stored in all where tasks[stored.id]?.position != stored.position { tasks[stored.id]?.position = stored.position }
        }
        return .done
    }

    /// Puts a task just added at `place` in the waiting line (waiting and paused tasks in queue order; aria2's
    /// `addUri` position), in the same step as the add: nothing runs before it is there.
    private func place(_ id: TaskID, at place: Int) {
        // The store moves among every unfinished task: step to where the task now at `place` in the line stands.
        let unfinished = tasks.values.filter { $0.state != .completed }
            .sorted { ($0.position, $0.id.rawValue) < ($1.position, $1.id.rawValue) }
        let line = unfinished.filter { $0.state == .waiting || $0.state == .paused }
        guard !line.isEmpty, let from = unfinished.firstIndex(where: { $0.id == id }),
              let to = unfinished.firstIndex(where: { $0.id == line[min(place, line.count - 1)].id })
        else { return }
        _ = move(id, by: to - from)
    }

    var storeFailure: CommandResult { .storeFailed(lastStoreError ?? "the queue database could not be written") }

    /// Queues new tasks; a URL already in the queue for the same directory and name is not fetched twice:
    /// an unfinished task carries on (resumed when it was paused or failed), and a completed one whose file is
    /// still there at its size is reported, not fetched again. The same link twice in one batch is one task.
    /// Another link under the `-o` name of an unfinished task in the same directory, or one found to serve an
    /// unfinished task's file (`NewTask.continues`), is that task's new link (`set-url`'s rules: its bytes stay only
    /// if the link serves the same file).
    private func add(_ newTasks: [NewTask]) -> CommandResult {
        var unfinished: [TaskIdentity: TaskID] = [:]
        var completed: [TaskIdentity: TaskID] = [:]
        var named: [String: TaskID] = [:]
        for task in tasks.values {
            if task.state.isUnfinished {
                unfinished[TaskIdentity(task)] = unfinished[TaskIdentity(task)].map { min($0, task.id) } ?? task.id
                if let name = task.requestedName { named[PathJoin.join(task.directory, name)] = task.id }
            } else if task.state == .completed {
                completed[TaskIdentity(task)] = completed[TaskIdentity(task)].map { max($0, task.id) } ?? task.id
            }
        }
        // The positions of the tasks to enqueue: all of them, as a rule, and then `newTasks` is enqueued as it is.
        var freshIndices: [Int] = []
        var freshIdentities: Set<TaskIdentity> = []
        var reused: [DownloadTask] = []
        for (index, new) in newTasks.enumerated() {
            let identity = TaskIdentity(new)
            // `--allow-overwrite` fetches a finished file again (it replaces the file when done).
            let finished = new.requestOptions.allowOverwrite == true ? nil : completed[identity]
            let known = unfinished[identity] ?? finished.flatMap { id in tasks[id].flatMap(Self.fileIsIntact) }
            if let id = known, let task = tasks[id] {
                if !reused.contains(where: { $0.id == id }) { reused.append(task) }
                continue
            }
            let continued = new.continues.flatMap { id in tasks[id]?.directory == new.directory ? id : nil }
            if let id = continued ?? new.requestedName.flatMap({ named[PathJoin.join(new.directory, $0)] }),
               case .done = setURL(id, new.url, change: .sameFile), let task = tasks[id] {
                if !reused.contains(where: { $0.id == id }) { reused.append(task) }
                continue
            }
            guard freshIdentities.insert(identity).inserted else { continue }
            freshIndices.append(index)
        }
        freshIdentities = []
        let fresh = freshIndices.count == newTasks.count ? newTasks : freshIndices.map { newTasks[$0] }
        for task in reused where task.state.isUnfinished { _ = resume(task.id) }
        let reusedNow = reused.map { tasks[$0.id] ?? $0 }
        guard !fresh.isEmpty else { return .added(new: [], reused: reusedNow) }
        guard var added = attempt({ try store.enqueue(fresh) }) else { return storeFailure }
        for (index, new) in zip(added.indices, fresh) {
            // Paused before any slot is filled: a task asked to wait never starts first.
            if new.startsPaused == true, let paused = TaskLifecycle.pause(added[index]) {
                added[index] = paused
                save(paused)
            }
            tasks[added[index].id] = added[index]
            announce(.added(added[index]))
        }
        for (index, new) in zip(added.indices, fresh) {
            guard let place = new.position else { continue }
            self.place(added[index].id, at: place)
            if let moved = tasks[added[index].id] { added[index] = moved }
        }
        return .added(new: added, reused: reusedNow)
    }

    /// A new link for an unfinished task, checked like any link a user gives. A running task is stopped with its
    /// bytes synced and goes back in line, a failed one is retried; the next attempt asks the new link and keeps
    /// the bytes only as `change` allows (`LinkChange`). The old link goes to the task's history without its
    /// credentials. The same link again with `--keep-bytes` or `--restart` answers a refused new link.
    private func setURL(_ id: TaskID, _ text: String, change: LinkChange) -> CommandResult {
        guard var task = tasks[id] else { return .unknownTask(id) }
        guard task.state.isUnfinished else { return .notAllowed(id, state: task.state) }
        let url: String
        do { url = try URLValidation.validate(text) } catch { return .rejected(error.description) }
        guard url != task.url || (change != .sameFile && change != task.linkChange) else { return .done }
        if task.state == .running, let waiting = TaskLifecycle.requeue(task) {
            task = waiting
            driver.send(.pause(id))
        } else if task.state == .failed, let retried = TaskLifecycle.resume(task) {
            task = retried
        }
        if url != task.url {
            task.linkHistory.append(URLValidation.redacted(task.url))
            task.url = url
        }
        task.linkChange = change
        task.lastError = nil
        save(task)
        return .done
    }

    /// New mirrors for an unfinished task, checked by the mirror rule against its link. A running task goes back
    /// in line with its bytes synced and starts again with them; the reasons earlier links were dropped go.
    private func setMirrors(_ id: TaskID, _ raw: [String]) -> CommandResult {
        guard var task = tasks[id] else { return .unknownTask(id) }
        guard task.state.isUnfinished else { return .notAllowed(id, state: task.state) }
        let mirrors: [String]
        do { mirrors = try TaskIntake.mirrors(raw, of: task.url) } catch { return .rejected(error.description) }
        guard mirrors != task.mirrors else { return .done }
        if task.state == .running, let waiting = TaskLifecycle.requeue(task) {
            task = waiting
            driver.send(.pause(id))
        }
        task.mirrors = mirrors
        task.droppedLinks = []
        save(task)
        return .done
    }

    func pause(_ id: TaskID) -> CommandResult {
        guard let task = tasks[id] else { return .unknownTask(id) }
        if task.state == .paused { return .done }
        guard let paused = TaskLifecycle.pause(task) else { return .notAllowed(id, state: task.state) }
        runtime[id].backoff = nil
        save(paused)
        // A running task reports `paused` once the engine has synced its bytes; a live recording reports `completed`
        // with what it recorded.
        if runtime.isInFlight(id) {
            driver.send(task.kind?.pauseFinishes == true ? .stopRecording(id) : .pause(id))
        } else {
            announce(.paused(paused))
        }
        return .done
    }

    func resume(_ id: TaskID) -> CommandResult {
        guard let task = tasks[id] else { return .unknownTask(id) }
        if task.state == .waiting || task.state == .running { return .done }
        guard let resumed = TaskLifecycle.resume(task) else { return .notAllowed(id, state: task.state) }
        runtime[id].backoff = nil
        save(resumed)
        return .done
    }

    private func remove(_ id: TaskID, deleteFile: Bool) -> CommandResult {
        guard let task = tasks.removeValue(forKey: id) else { return .unknownTask(id) }
        guard attempt({ try store.delete([id]) }) != nil else {
            tasks[id] = task
            return storeFailure
        }
        letGo(task, deleteFile: deleteFile)
        return .done
    }

    /// What follows a task's removal from the store: its transfer stopped, its part file deleted or given back, the
    /// front ends told.
    func letGo(_ task: DownloadTask, deleteFile: Bool) {
        let id = task.id
        runtime[id].backoff = nil
        runtime[id].unrecordedBytes = nil
        // The part file belongs to the engine: it stops a transfer it holds and deletes the part file the
        // transfer really used (the name may be decided after this controller last heard of it).
        // A part file -c took from the final name, and no 206 continued, goes back there instead (`.finished`
        // gives it back when a transfer holds it).
        let lent = task.holdsLentPart
        let deletesPart = deleteFile && task.state != .completed && !lent
        if runtime.isInFlight(id) {
            runtime[id].removal = TaskRuntime.Removal(task: task, deleteFile: deletesPart)
        } else if lent {
            _ = giveBackLentPart(task)
        }
        if deletesPart {
            driver.send(.deletePart(id, directory: task.directory, fileName: task.fileName))
        } else if runtime.isInFlight(id) {
            driver.send(.pause(id))
        }
        announce(.removed(task))
    }
}

/// What makes two queued downloads the same: the URL, the directory and the name asked for.
private struct TaskIdentity: Hashable {
    var url: String
    var directory: String
    var requestedName: String?

    init(_ task: DownloadTask) {
        url = task.url
        directory = task.directory
        requestedName = task.requestedName
    }

    init(_ task: NewTask) {
        url = task.url
        directory = task.directory
        requestedName = task.requestedName
    }
}
