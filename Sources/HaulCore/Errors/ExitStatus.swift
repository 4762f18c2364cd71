/// The process exit statuses of haul's commands; a stable table scripts may rely on.
public enum ExitStatus: Int32, Sendable {
    /// Every task run completed (or the command did what it was asked).
    case success = 0
    /// Some task failed.
    case taskFailed = 1
    /// Bad arguments or configuration, or a request the queue refuses (an unknown task, a wrong state).
    case usage = 2
    /// The command could not be carried out although it was right: the running haul did not answer, a
    /// background haul did not start, the queue database could not be written. Trying again may work.
    case commandFailed = 3
    /// Interrupted by a signal; state is saved and a rerun continues.
    case interrupted = 130
}
