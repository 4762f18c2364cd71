import HaulCore

/// Decides what a range answer from one link of a task with mirrors means for that link (DESIGN §8):
/// pure, on top of `RangeCheck`.
///
/// Every link must serve the same file: the same total length, ranges answered with 206, its own validators
/// unchanged. A link that disagrees is dropped with its reason and its ranges go to the others, instead of
/// restarting the file or falling back to one stream as a task with one link does. A link answering with an
/// error that trying again cannot mend (404, 403, 410…) is dropped at once. The last link left keeps the
/// rules of a task with one link.
enum LinkAgreement {
    enum Verdict: Equatable {
        /// Go on as `RangeCheck` says (accept the bytes, or count a failure of this connection).
        case keep(RangeCheck.Verdict)
        /// Stop using this link for the rest of the attempt, for this reason.
        case drop(String)
    }

    /// - Parameters:
    ///   - validators: the link's own validators (none before its first answer).
    ///   - othersLive: whether another link of the task is still in use.
    ///   - newLink: set for the main link while a replaced link is unconfirmed (`LinkChange`).
    ///   - main: for a mirror's first answer, the main link's validators: an ETag (from the same host or server
    ///     software) or a Last-Modified that contradicts them says it serves another file (`RemoteValidators.mismatch`).
    static func verdict(
        head: ResponseHead, requested: Range<Int64>, total: Int64, validators: RemoteValidators, host: String,
        othersLive: Bool, newLink: LinkChange? = nil, main: RemoteValidators? = nil
    ) -> Verdict {
        let range = RangeCheck.verdict(
            head: head, requested: requested, total: total, validators: validators, host: host, newLink: newLink)
        guard othersLive else { return .keep(range) }
        if let stated = head.statedTotal ?? (head.status == 200 && !head.isChunked ? head.contentLength : nil),
           stated != total {
            return .drop("it serves \(stated) bytes where the file has \(total)")
        }
        switch range {
        case .accept:
            if let main, let mismatch = main.mismatch(with: head.validators(from: host)) {
                return .drop(
                    "it serves another file: \(mismatch.validator.subject) is \(mismatch.offered) where the main link's is \(mismatch.recorded)")
            }
            return .keep(range)
        case .ignoresRanges:
            return .drop("it answered a range with the whole file (HTTP \(head.status)): it does not serve ranges")
        case let .changed(reason):
            return .drop(reason)
        case let .refuse(error):
            return .drop(error.description)
        case let .reject(error):
            return error.isTransient ? .keep(range) : .drop(error.description)
        }
    }

    /// Whether a failed first request says something about its link (an error status, the network, TLS,
    /// redirects, a broken answer), so another link may be asked instead; not a local failure (the disk), nor
    /// a replaced link that serves another file.
    static func isLinkFailure(_ error: DownloadError) -> Bool {
        switch error {
        case .httpStatus, .loginRefused, .network, .stalled, .tls, .tooManyRedirects, .invalidResponse, .badContentRange, .bodyPastLength,
             .sizeMismatch, .unsupportedScheme:
            return true
        default:
            return false
        }
    }
}
