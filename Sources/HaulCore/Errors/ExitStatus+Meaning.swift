extension ExitStatus {
    /// Every status, in the order the manual lists them.
    public static let documented: [ExitStatus] = [.success, .taskFailed, .usage, .commandFailed, .interrupted]

    /// What the status tells a script, as `haul --help` and the manual say it.
    public var meaning: String {
        switch self {
        case .success: "Every task completed, or the command did what it was asked."
        case .taskFailed: "Some task failed (haul list shows why)."
        case .usage: "Bad arguments or settings, or a request the queue refuses: an unknown task, a wrong state."
        case .commandFailed:
            "The command was right but could not be carried out: the running haul did not answer, a background haul did not start, the queue could not be written. Trying again may work."
        case .interrupted: "Interrupted by a signal (SIGINT, SIGTERM); every byte is saved and a new run goes on."
        }
    }
}
