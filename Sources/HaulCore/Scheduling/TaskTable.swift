/// The controller's tasks by id, with the small indexes scheduling reads after every event
/// (how many run, which wait and where), so no decision has to copy every task.
struct TaskTable {
    private(set) var byID: [TaskID: DownloadTask] = [:]
    /// Waiting tasks and their queue positions.
    private(set) var waitingPositions: [TaskID: Int64] = [:]
    private(set) var runningCount = 0

    subscript(id: TaskID) -> DownloadTask? {
        get { byID[id] }
        set {
            if let old = byID[id] { unindex(old) }
            byID[id] = newValue
            if let newValue { index(newValue) }
        }
    }

    @discardableResult
    mutating func removeValue(forKey id: TaskID) -> DownloadTask? {
        guard let old = byID.removeValue(forKey: id) else { return nil }
        unindex(old)
        return old
    }

    var values: Dictionary<TaskID, DownloadTask>.Values { byID.values }
    var keys: Dictionary<TaskID, DownloadTask>.Keys { byID.keys }

    /// Whether anything is waiting or running.
    var hasPendingWork: Bool { runningCount > 0 || !waitingPositions.isEmpty }

    private mutating func index(_ task: DownloadTask) {
        switch task.state {
        case .waiting: waitingPositions[task.id] = task.position
        case .running: runningCount += 1
        default: break
        }
    }

    private mutating func unindex(_ task: DownloadTask) {
        switch task.state {
        case .waiting: waitingPositions[task.id] = nil
        case .running: runningCount -= 1
        default: break
        }
    }
}
