import HaulCore

extension ExitStatus {
    /// The status a run ends with: 130 when interrupted, else 1 when a task ended failed (or paused by an
    /// error), else 0. `interrupted` overrides the summary's own flag: leaving the live list with `q` stops the
    /// controller without being an interruption, and a stop signal the list noticed first is one.
    init(_ summary: DownloadController.RunSummary, interrupted: Bool? = nil) {
        if interrupted ?? summary.interrupted {
            self = .interrupted
        } else if summary.hasFailures {
            self = .taskFailed
        } else {
            self = .success
        }
    }
}
