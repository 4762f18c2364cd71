import HaulCore

/// What `haul set-url` asks a new link at once, and what its answer means (DESIGN §8): pure, on top of `RangeCheck`.
///
/// A task that keeps bytes asks the new link for a few of the bytes it does not hold yet, as a resume would (a
/// bounded range, no `If-Range`: the new link's validators are not known). The answer must serve the same file:
/// the same length, and no contradicting validator unless the user vouched for the link (`LinkChange`). An answer
/// that says nothing about the file (the link cannot be reached now, an error status) leaves the check to the
/// resume: the link is taken with a warning.
public enum NewLinkProbe {
    public enum Verdict: Sendable, Equatable {
        /// Nothing to check: no bytes are kept, the length is unknown, the user chose to start over, or a stream.
        case notNeeded
        /// The new link serves the file the kept bytes belong to.
        case sameFile
        /// The new link serves another file: the link is not changed.
        case refused(DownloadError)
        /// The answer says nothing about the file (why, for the warning); the resume checks it.
        case unconfirmed(String)
    }

    /// Bytes a check asks for.
    static let size: Int64 = 16

    /// The bytes to ask for `task` under `change`: from the first byte not kept (the last byte of a file held
    /// whole); nil when there is nothing to check.
    public static func range(for task: DownloadTask, change: LinkChange) -> Range<Int64>? {
        guard change != .restart, task.kind?.keepsBytesAcrossLinks == true, let total = task.totalBytes, total > 0,
              task.bytesDone > 0 || !task.segments.isEmpty
        else { return nil }
        let start = min(max(task.bytesDone, 0), total - 1)
        return start..<min(total, start + size)
    }

    /// What the final answer `head` (redirects followed) of the new link on `host` to a request for `requested`
    /// means for a task of `total` bytes whose kept bytes came with `stored`.
    static func verdict(
        head: ResponseHead, requested: Range<Int64>, total: Int64, stored: RemoteValidators, host: String, change: LinkChange
    ) -> Verdict {
        switch RangeCheck.verdict(head: head, requested: requested, total: total, validators: stored, host: host, newLink: change) {
        case .accept:
            return .sameFile
        case let .refuse(error):
            return .refused(error)
        case let .reject(error):
            return .unconfirmed(error.description)
        case let .changed(reason):
            return .unconfirmed(reason)
        case .ignoresRanges:
            return .unconfirmed("it answered a range with the whole file")
        }
    }
}
