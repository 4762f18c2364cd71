/// How the controller took a user's command, so the CLI and remote callers can report it.
public enum CommandResult: Sendable, Equatable, Codable {
    case done
    /// A command for every task (pause all) changed this many.
    case changed(Int)
    /// The tasks of an `add`: new ones, and unfinished ones that already fetch the same URL to the same
    /// place (`reused`), which carry on instead of starting a second copy.
    case added(new: [DownloadTask], reused: [DownloadTask])
    /// No task with this id is in the queue.
    case unknownTask(TaskID)
    /// The command does not apply to a task in this state (pausing a completed task, moving a finished one …).
    case notAllowed(TaskID, state: TaskState)
    /// The queue database could not be written; the message says why.
    case storeFailed(String)
    /// The command's input is not usable (a malformed link); the message says why and quotes it.
    case rejected(String)
}
