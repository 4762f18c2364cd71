import HaulCore

/// What `haul pause|resume|remove` asks of tasks.
enum EditAction: Equatable {
    case pause, resume
    case remove(deleteFile: Bool)

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

    /// The one command that carries the edit out on every task it applies to (in `state`, when given):
    /// `TaskLifecycle.pause` applies exactly where `pauseAll` does, `TaskLifecycle.resume` where `resumeAll` does.
    func everyTask(in state: TaskState?) -> QueueCommand {
        switch self {
        case .pause: .pauseAll
        case .resume: .resumeAll(only: state)
        case let .remove(deleteFile): .removeAll(only: state, deleteFile: deleteFile)
        }
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
