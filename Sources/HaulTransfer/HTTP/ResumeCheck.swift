import Foundation
import HaulCore

/// Decides what a final response means for the part file (DESIGN §5).
///
/// A 206 continues the part file only if its Content-Range starts at our offset and its total agrees
/// with the total we recorded; a 200 restarts from byte 0; a 416 whose total equals our offset means
/// the file is complete; a 416 to a request without a Range is the server refusing it; an error status
/// never touches the file.
enum ResumeCheck {
    enum Verdict: Equatable {
        /// Write the body at `offset`; `total` is the whole file's size when known.
        case append(offset: Int64, total: Int64?)
        /// Truncate to 0 and write the body from there, for this reason (nil when nothing was kept anyway).
        case restart(total: Int64?, reason: String?)
        /// Nothing more to fetch: the part file already holds all `total` bytes.
        case alreadyComplete(total: Int64)
        /// Keep the part file as it is and fail the attempt.
        case reject(DownloadError)
        /// The server's totals disagree with ours: drop the kept bytes (the remote file changed) and retry.
        case discardAndRetry(DownloadError)
    }

    /// - Parameter newLink: set while a replaced link is unconfirmed (`LinkChange`): its first answer must
    ///   serve the same file, or the attempt is refused with the kept bytes untouched.
    static func verdict(
        head: ResponseHead, requestedOffset: Int64, expectedTotal: Int64?, storedValidators: RemoteValidators,
        host: String, newLink: LinkChange? = nil
    ) -> Verdict {
        if let refusal = head.implausibleSize(host: host) { return .reject(refusal) }
        if let newLink, requestedOffset > 0 {
            return newLinkVerdict(
                head: head, offset: requestedOffset, expectedTotal: expectedTotal, stored: storedValidators,
                host: host, change: newLink)
        }
        switch head.status {
        case 206:
            guard let range = head.contentRange, let first = range.first else { return .reject(head.unusableContentRange) }
            guard first == requestedOffset else {
                return .reject(.badContentRange("asked for bytes from \(requestedOffset), got a range starting at \(first)"))
            }
            if let expectedTotal, let total = range.total, total != expectedTotal {
                return .discardAndRetry(.remoteFileChanged("the file is now \(total) bytes, was \(expectedTotal)"))
            }
            // A server may ignore If-Range (or we had only a weak ETag to send): the 206 must still be the same file.
            if let changed = storedValidators.contradicted(by: head.validators(from: host)) {
                return .discardAndRetry(.remoteFileChanged("\(changed) changed since the download began"))
            }
            return .append(offset: requestedOffset, total: range.total ?? expectedTotal)
        case 200...299:
            let total = head.isChunked ? nil : head.contentLength
            guard requestedOffset > 0 else { return .restart(total: total, reason: nil) }
            let changed = storedValidators.contradicted(by: head.validators(from: host)) != nil
            // The same strong ETag promises the same bytes: a full answer of another length is a lie, not a new file.
            if storedValidators.sharesStrongETag(with: head.validators(from: host)), let expectedTotal, let total, total != expectedTotal {
                return .reject(.invalidResponse(
                    host: host, detail: "a full answer of \(total) bytes under the same ETag as the \(expectedTotal)-byte file"))
            }
            return .restart(total: total, reason: changed ? "remote file changed" : "server ignores ranges")
        case 416:
            // Without a Range there is nothing to start over from: the server refuses the request itself.
            guard requestedOffset > 0 else {
                return .reject(.httpStatus(
                    code: 416, reason: "(no range was sent: the server refuses the request)", host: host, retryAfter: nil))
            }
            if let total = head.statedTotal, total == requestedOffset { return .alreadyComplete(total: total) }
            return .discardAndRetry(.remoteFileChanged("the range from byte \(requestedOffset) is not satisfiable any more"))
        default:
            return .reject(head.statusError(host: host))
        }
    }

    /// The first answer of a replaced link, to a request from the first byte not kept: the same length, and
    /// no contradicting validator unless the user vouched for the link.
    private static func newLinkVerdict(
        head: ResponseHead, offset: Int64, expectedTotal: Int64?, stored: RemoteValidators, host: String,
        change: LinkChange
    ) -> Verdict {
        switch head.status {
        case 206:
            guard let range = head.contentRange, let first = range.first else { return .reject(head.unusableContentRange) }
            guard first == offset else {
                return .reject(.badContentRange("asked for bytes from \(offset), got a range starting at \(first)"))
            }
            guard let total = range.total, total == expectedTotal else {
                return .reject(.linkServesAnotherFile(kept: expectedTotal, offered: range.total))
            }
            if change == .sameFile, let mismatch = stored.mismatch(with: head.validators(from: host)) {
                return .reject(.linkDisagrees(mismatch))
            }
            return .append(offset: offset, total: total)
        case 200...299:
            let length = head.isChunked ? nil : head.contentLength
            guard length == expectedTotal else { return .reject(.linkServesAnotherFile(kept: expectedTotal, offered: length)) }
            return .reject(.linkIgnoresRanges)
        case 416:
            if let total = head.statedTotal, total == offset, total == expectedTotal { return .alreadyComplete(total: total) }
            return .reject(.linkServesAnotherFile(kept: expectedTotal, offered: head.statedTotal))
        default:
            return .reject(head.statusError(host: host))
        }
    }
}
