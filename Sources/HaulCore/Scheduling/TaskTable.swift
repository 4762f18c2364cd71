/// The controller's tasks by id, with the small indexes scheduling reads after every event
/// (how many run, which wait and where), so no decision has to copy every task.
struct TaskTable {
    private(set) var byID: [TaskID: DownloadTask] = [:]
    /// Waiting tasks in queue order, as the slot policy sees them.
    private(set) var waiting = WaitingLine()
    /// Running tasks and their queue positions.
    private(set) var runningPositions: [TaskID: Int64] = [:]
    /// File names of unfinished tasks, by download directory: a new download must never take one over.
    private(set) var unfinishedNames: [String: [String: Int]] = [:]

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

    /// Makes room for `count` tasks in all, so a load of 100,000 grows the table once.
    mutating func reserveCapacity(_ count: Int) { byID.reserveCapacity(count) }

    var values: Dictionary<TaskID, DownloadTask>.Values { byID.values }
    var keys: Dictionary<TaskID, DownloadTask>.Keys { byID.keys }

    /// Gives back the room of an index a command for every task mostly emptied (a dictionary keeps its room when
    /// emptied): the waiting line of 100,000 tasks paused at once, the table of 100,000 removed.
    mutating func compact() {
        byID.giveBackRoom()
        waiting.giveBackRoom()
    }

    /// The waiting tasks in queue order (`WaitingLine`).
    mutating func waitingInOrder() -> some Sequence<(id: TaskID, waiting: SlotPolicy.Waiting)> { waiting.inOrder() }

    /// Whether anything is waiting or running.
    var hasPendingWork: Bool { !runningPositions.isEmpty || !waiting.isEmpty }

    /// The file names other unfinished tasks hold in `task`'s directory.
    func namesHeld(besides task: DownloadTask) -> Set<String> {
        var names = Set(unfinishedNames[task.directory, default: [:]].keys)
        if let own = task.fileName, unfinishedNames[task.directory]?[own] == 1 { names.remove(own) }
        return names
    }

    private mutating func index(_ task: DownloadTask) {
        if task.state != .completed, let name = task.fileName { unfinishedNames[task.directory, default: [:]][name, default: 0] += 1 }
        switch task.state {
        // A task the user put back in line (resumed, retried, moved) has no failed attempt yet and may
        // take the slot of a task queued after it; one coming back from a retry only fills free slots.
        case .waiting: waiting.insert(task.id, SlotPolicy.Waiting(position: task.position, mayPreempt: task.attempts == 0))
        case .running: runningPositions[task.id] = task.position
        default: break
        }
    }

    private mutating func unindex(_ task: DownloadTask) {
        if task.state != .completed, let name = task.fileName {
            let left = (unfinishedNames[task.directory]?[name] ?? 1) - 1
            unfinishedNames[task.directory]?[name] = left > 0 ? left : nil
        }
        switch task.state {
        case .waiting: waiting.remove(task.id)
        case .running: runningPositions[task.id] = nil
        default: break
        }
    }
}
