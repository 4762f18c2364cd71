import HaulCore

/// What remote control remembers beyond the queue: tasks removed since the last purge (aria2 lists them
/// as `removed` in `tellStopped` until `purgeDownloadResult`), and global options kept for clients.
actor RemoteState {
    /// Removed tasks, oldest first; at most `removedLimit`.
    private(set) var removed: [DownloadTask] = []
    static let removedLimit = 1000

    /// Tasks an RPC `remove` already recorded, whose controller event is still to come: the event must not
    /// bring back a result the client has removed in the meantime (aria2p removes the result right away).
    private var recordedByRPC: Set<TaskID> = []

    /// Options `addUri` accepted without effect (`Aria2TaskOptions.harmless`), per task, for `getOption`.
    private(set) var ignoredOptions: [TaskID: [String]] = [:]

    /// Remembers the options a new task's `addUri` ignored.
    func recordIgnored(_ keys: [String], for id: TaskID) {
        guard !keys.isEmpty else { return }
        ignoredOptions[id] = keys
        // Bounded like the removed list: a client adding forever does not grow it.
        if ignoredOptions.count > 10 * Self.removedLimit, let oldest = ignoredOptions.keys.min() { ignoredOptions[oldest] = nil }
    }

    /// An RPC client removed an unfinished task: it is `removed` from now on, before its event arrives.
    func recordRemoval(_ task: DownloadTask) {
        recordedByRPC.insert(task.id)
        append(task)
    }

    /// The controller's `removed` event, from any client. A finished task's result only leaves the list
    /// (aria2's removeDownloadResult and purge); an unfinished one becomes `removed` unless RPC recorded it.
    func removalEvent(_ task: DownloadTask) {
        if recordedByRPC.remove(task.id) != nil { return }
        guard task.state != .completed, task.state != .failed else { return }
        append(task)
    }

    /// The unfinished tasks one command removed together (`remove --all`), oldest first.
    func removalEvents(_ tasks: [DownloadTask]) {
        for task in tasks { removalEvent(task) }
    }

    private func append(_ task: DownloadTask) {
        removed.removeAll { $0.id == task.id }
        removed.append(task)
        if removed.count > Self.removedLimit { removed.removeFirst(removed.count - Self.removedLimit) }
    }

    func removedTask(_ id: TaskID) -> DownloadTask? { removed.first { $0.id == id } }

    @discardableResult
    func forget(_ id: TaskID) -> Bool {
        let before = removed.count
        removed.removeAll { $0.id == id }
        return removed.count != before
    }

    func forgetAll() { removed = [] }

}
