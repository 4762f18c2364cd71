import HaulCore

/// Why a command failed, typed by what the user can do about it. `FailureReport` turns it into text and an
/// exit status.
enum CommandFailure: Error, Equatable {
    /// Bad arguments or configuration, or a request the queue refuses (a queue another haul runs): the command
    /// must change.
    case usage(String)
    /// No task with this id is in the queue (a usage error).
    /// `again`: what the hint repeats so `haul list` finds the same queue (`StateOptions.repeated`).
    case unknownTask(TaskID, again: String)
    /// The task is in a state the command does not apply to, e.g. pausing a completed one (a usage error).
    case notAllowed(TaskID, state: TaskState, verb: String)
    /// The haul that holds the queue (pid, when known) did not answer; `context` says to what ("to the command").
    case ownerUnreachable(pid: Int32?, context: String, reason: String)
    /// A right command that could not be carried out: a background haul that did not start, a limit or a reload
    /// with no haul running, the live list failing, a queue database that cannot be written.
    case runtime(String)
    /// Several of the above (a batch edit), one line each.
    indirect case several([CommandFailure])

    /// What the user reads, without the `haul: ` prefix (later lines carry their own).
    var message: String {
        switch self {
        case let .usage(text), let .runtime(text):
            text
        case let .unknownTask(id, again):
            "no task #\(id) in the queue (see `haul list\(again)`)"
        case let .notAllowed(id, state, verb):
            "#\(id) is \(state.rawValue): nothing to \(verb)"
        case let .ownerUnreachable(pid, context, reason):
            "the running haul\(pid.map { " (pid \($0))" } ?? "") did not answer \(context): \(reason)"
        case let .several(failures):
            failures.map(\.message).joined(separator: "\n" + UserMessages.prefix)
        }
    }

    /// 2 for what the user must change, 3 for what went wrong carrying out a right command.
    var exitStatus: ExitStatus {
        switch self {
        case .usage, .unknownTask, .notAllowed: .usage
        case .ownerUnreachable, .runtime: .commandFailed
        case let .several(failures): failures.map(\.exitStatus).first { $0 != .usage } ?? .usage
        }
    }
}
