import HaulCore

extension CommandResult {
    /// Why the command named by `verb` ("pause", "limit") did not take effect; nil when it did. `again`: the options
    /// a hint repeats so its command finds the same queue (`StateOptions.repeated`).
    func failure(verb: String, again: String = "") -> CommandFailure? {
        switch self {
        case .done, .changed, .added: nil
        case let .unknownTask(id): .unknownTask(id, again: again)
        case let .notAllowed(id, state): .notAllowed(id, state: state, verb: verb)
        case let .storeFailed(message): .runtime(message)
        case let .rejected(message): .usage(message)
        }
    }

    /// The new and reused tasks of an `add`, or the reason it failed.
    func addedTasks() throws(CommandFailure) -> (new: [DownloadTask], reused: [DownloadTask]) {
        if case let .added(new, reused) = self { return (new, reused) }
        if let failure = failure(verb: "add") { throw failure }
        return ([], [])
    }
}
