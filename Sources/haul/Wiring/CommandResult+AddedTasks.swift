import HaulCore

extension CommandResult {
    /// The new and reused tasks of an `add`, or the reason it failed.
    func addedTasks() throws -> (new: [DownloadTask], reused: [DownloadTask]) {
        switch self {
        case let .added(new, reused): return (new, reused)
        case let .storeFailed(message): throw UsageFailure(message: message)
        case .done, .unknownTask, .notAllowed: return ([], [])
        }
    }
}
