import HaulCore

extension ExitStatus {
    init(_ summary: DownloadController.RunSummary) {
        if summary.interrupted {
            self = .interrupted
        } else if summary.hasFailures {
            self = .taskFailed
        } else {
            self = .success
        }
    }
}
