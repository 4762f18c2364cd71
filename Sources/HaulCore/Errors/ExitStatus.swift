/// The process exit statuses of a headless run; a stable table scripts may rely on.
public enum ExitStatus: Int32, Sendable {
    /// Every task run completed.
    case success = 0
    /// Some task failed.
    case taskFailed = 1
    /// Bad arguments or configuration.
    case usage = 2
    /// Interrupted by a signal; state is saved and a rerun continues.
    case interrupted = 130
}
