import HaulCore

/// What remote control remembers beyond the queue: tasks removed since the last purge (aria2 lists them
/// as `removed` in `tellStopped` until `purgeDownloadResult`), and global options kept for clients.
actor RemoteState {
    /// Removed tasks, oldest first; at most `removedLimit`.
    private(set) var removed: [DownloadTask] = []
    static let removedLimit = 1000
    /// `max-overall-download-limit` as a client last set it.
    var overallLimit = "0"

    func recordRemoval(_ task: DownloadTask) {
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

    func setOverallLimit(_ value: String) { overallLimit = value }
}
