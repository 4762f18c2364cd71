import HaulCore

/// What `haul pause|resume|remove` asks of tasks.
enum EditAction: Equatable {
    case pause, resume
    case remove(deleteFile: Bool)

    /// Whether the edit changes a task in this state (the lifecycle's rule; removal applies to every task).
    func applies(to task: DownloadTask) -> Bool {
        switch self {
        case .pause: TaskLifecycle.pause(task) != nil
        case .resume: TaskLifecycle.resume(task) != nil
        case .remove: true
        }
    }

    /// The task once the edit is carried out (unchanged where it does not apply); nil once removed.
    func predicted(_ task: DownloadTask) -> DownloadTask? {
        switch self {
        case .pause: TaskLifecycle.pause(task) ?? task
        case .resume: TaskLifecycle.resume(task) ?? task
        case .remove: nil
        }
    }

    func command(for id: TaskID) -> QueueCommand {
        switch self {
        case .pause: .pause(id)
        case .resume: .resume(id)
        case let .remove(deleteFile): .remove(id, deleteFile: deleteFile)
        }
    }

    /// The one command that carries the edit out on every task it applies to, where there is one: a pause
    /// (`TaskLifecycle.pause` applies exactly where `pauseAll` does).
    var everyTask: QueueCommand? {
        self == .pause ? .pauseAll : nil
    }

    /// What the tasks it changed are now, as `haul pause --all` reports it.
    var outcome: String {
        switch self {
        case .pause: "now paused"
        case .resume: "now waiting"
        case .remove: "removed"
        }
    }

    var verb: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .remove: "remove"
        }
    }
}
