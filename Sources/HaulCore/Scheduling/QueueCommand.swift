/// What a front end (the TUI, the headless runner, another process through the store) asks of the controller.
public enum QueueCommand: Sendable, Equatable, Codable {
    case add([NewTask])
    /// Pause a running or waiting task (keeps the part file).
    case pause(TaskID)
    /// Resume a paused task, or retry a failed one.
    case resume(TaskID)
    case pauseAll
    case startAll
    /// Resume every task a resume applies to (`haul resume --all`: paused and failed tasks, and finished live
    /// recordings, which start a new part), or every task in `only` (`--failed`), in few store writes.
    case resumeAll(only: TaskState?)
    /// Remove every task, or every task in `only` (`--completed`), as `remove` does each, in few store writes.
    case removeAll(only: TaskState?, deleteFile: Bool)
    /// Remove the task from the queue; `deleteFile` also deletes its part file (never a completed file).
    case remove(TaskID, deleteFile: Bool)
    /// Move an unfinished task up (`by` < 0) or down (`by` > 0) in the queue.
    case move(TaskID, by: Int)
    case setMaxConcurrent(Int)
    /// Cap the sum of all downloads (nil for none), live.
    case setOverallLimit(RateLimit?)
    /// Cap one download over all its connections (nil for none), live.
    case setTaskLimit(TaskID, RateLimit?)
    /// Let one download use up to this many connections (1...16), live.
    case setTaskConnections(TaskID, Int)
    /// Give an unfinished task a new link; what happens to its bytes is `change` (DESIGN §8).
    case setURL(TaskID, url: String, change: LinkChange)
    /// Replace an unfinished task's mirrors (its other links; an empty list removes them all).
    case setMirrors(TaskID, [String])
    /// Replace the run and cap windows (an empty schedule: always run, no cap), live and kept.
    case setSchedule(Schedule)
    /// Set the schedule aside until its next change (true), or take it up again (false).
    case suspendSchedule(Bool)
}

extension QueueCommand {
    /// The task the command is about, if it names one.
    public var taskID: TaskID? {
        switch self {
        case let .pause(id), let .resume(id), let .remove(id, _), let .move(id, _), let .setTaskLimit(id, _),
             let .setTaskConnections(id, _), let .setURL(id, _, _), let .setMirrors(id, _): id
        case .add, .pauseAll, .startAll, .resumeAll, .removeAll, .setMaxConcurrent, .setOverallLimit, .setSchedule,
             .suspendSchedule: nil
        }
    }

    /// Whether a controller that has not read the queue carries the command out on the store alone (a command for
    /// every task, with no haul transferring: nothing is in flight and nobody is told).
    var editsStoreAlone: Bool {
        switch self {
        case .pauseAll, .resumeAll, .removeAll: true
        default: false
        }
    }
}
