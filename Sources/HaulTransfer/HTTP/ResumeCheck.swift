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

    static func verdict(
        head: ResponseHead, requestedOffset: Int64, expectedTotal: Int64?, storedValidators: RemoteValidators,
        host: String
    ) -> Verdict {
        switch head.status {
        case 206:
            guard let rangeText = head["content-range"], let range = ContentRange(parsing: rangeText),
                  let first = range.first
            else {
                return .reject(.serverLied("206 without a usable Content-Range (\(head["content-range"] ?? "none"))"))
            }
            guard first == requestedOffset else {
                return .reject(.serverLied("asked for bytes from \(requestedOffset), got a range starting at \(first)"))
            }
            if let expectedTotal, let total = range.total, total != expectedTotal {
                return .discardAndRetry(
                    .serverLied("the file is now \(total) bytes, was \(expectedTotal): remote file changed, starting over"))
            }
            // A server may ignore If-Range (or we had only a weak ETag to send): the 206 must still be the same file.
            if let changed = changedValidator(head: head, stored: storedValidators) {
                return .discardAndRetry(.serverLied("\(changed) changed since the download began: remote file changed, starting over"))
            }
            return .append(offset: requestedOffset, total: range.total ?? expectedTotal)
        case 200...299:
            let total = head.isChunked ? nil : head.contentLength
            guard requestedOffset > 0 else { return .restart(total: total, reason: nil) }
            let newValidators = RemoteValidators(etag: head["etag"], lastModified: head["last-modified"])
            let changed = changedValidator(head: head, stored: storedValidators) != nil
            // The same strong ETag promises the same bytes: a full answer of another length is a lie, not a new file.
            if let etag = storedValidators.etag, !etag.hasPrefix("W/"), newValidators.etag == etag,
               let expectedTotal, let total, total != expectedTotal {
                return .reject(.serverLied("a full answer of \(total) bytes under the same ETag as the \(expectedTotal)-byte file"))
            }
            return .restart(total: total, reason: changed ? "remote file changed" : "server ignores ranges")
        case 416:
            // Without a Range there is nothing to start over from: the server refuses the request itself.
            guard requestedOffset > 0 else {
                return .reject(.httpStatus(
                    code: 416, reason: "(no range was sent: the server refuses the request)", host: host, retryAfter: nil))
            }
            if let rangeText = head["content-range"], let range = ContentRange(parsing: rangeText),
               let total = range.total, total == requestedOffset {
                return .alreadyComplete(total: total)
            }
            return .discardAndRetry(.serverLied("range from byte \(requestedOffset) not satisfiable: starting over"))
        default:
            let retryAfter = head["retry-after"].flatMap { RetryAfter.seconds(from: $0, now: .now) }
            return .reject(.httpStatus(code: head.status, reason: head.reason, host: host, retryAfter: retryAfter))
        }
    }

    /// Which validator of a response contradicts the one recorded when the download began, if any.
    static func changedValidator(head: ResponseHead, stored: RemoteValidators) -> String? {
        if let etag = stored.etag, let now = head["etag"], now != etag { return "the ETag" }
        if let date = stored.lastModified, let now = head["last-modified"], now != date { return "Last-Modified" }
        return nil
    }
}
