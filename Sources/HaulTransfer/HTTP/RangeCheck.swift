import Foundation
import HaulCore

/// Decides what the answer to one bounded range request of a segmented download means (DESIGN §7),
/// before a byte of it is written: pure, beside `ResumeCheck`.
enum RangeCheck {
    enum Verdict: Equatable {
        /// Write the body from the requested start; the server sends bytes up to `end` (exclusive),
        /// which may be short of what was asked: the rest goes back to be fetched again.
        case accept(end: Int64)
        /// A full 200 of the same file: this server does not answer ranges; one stream must finish it.
        case ignoresRanges
        /// The file changed since the download began (total or validators differ): start the whole file over.
        case changed(String)
        /// This connection failed (an error status, a broken Content-Range); the others go on.
        case reject(DownloadError)
        /// A replaced link does not serve the file the kept ranges belong to: the attempt ends, nothing is
        /// discarded.
        case refuse(DownloadError)
    }

    /// - Parameter newLink: set while a replaced link is unconfirmed (`LinkChange`).
    static func verdict(
        head: ResponseHead, requested: Range<Int64>, total: Int64, validators: RemoteValidators, host: String,
        newLink: LinkChange? = nil
    ) -> Verdict {
        if let refusal = head.implausibleSize(host: host) { return .reject(refusal) }
        if let newLink {
            return newLinkVerdict(head: head, requested: requested, total: total, stored: validators, host: host, change: newLink)
        }
        switch head.status {
        case 206:
            guard let range = head.contentRange, let first = range.first, let last = range.last else {
                return .reject(head.unusableContentRange)
            }
            if let changed = changedValidator(head: head, stored: validators, host: host) { return .changed(changed) }
            if let whole = range.total, whole != total {
                return .changed("the file is now \(whole) bytes, was \(total)")
            }
            guard first == requested.lowerBound, last >= first, last < requested.upperBound else {
                return .reject(.badContentRange(
                    "asked for bytes \(requested.lowerBound)-\(requested.upperBound - 1), got \(first)-\(last)"))
            }
            return .accept(end: last + 1)
        case 200:
            if let changed = changedValidator(head: head, stored: validators, host: host) { return .changed(changed) }
            if let length = head.contentLength, length != total { return .changed("the file is now \(length) bytes, was \(total)") }
            return .ignoresRanges
        case 416:
            return .changed("a range inside the file is not satisfiable any more")
        default:
            return .reject(head.statusError(host: host))
        }
    }

    /// A range from a replaced link: the same total, and no contradicting validator unless the user vouched
    /// for the link.
    private static func newLinkVerdict(
        head: ResponseHead, requested: Range<Int64>, total: Int64, stored: RemoteValidators, host: String,
        change: LinkChange
    ) -> Verdict {
        switch head.status {
        case 206:
            guard let range = head.contentRange, let first = range.first, let last = range.last else {
                return .reject(head.unusableContentRange)
            }
            guard range.total == total else { return .refuse(.linkServesAnotherFile(kept: total, offered: range.total)) }
            if change == .sameFile, let mismatch = stored.mismatch(with: head.validators(from: host)) {
                return .refuse(.linkDisagrees(mismatch))
            }
            guard first == requested.lowerBound, last >= first, last < requested.upperBound else {
                return .reject(.badContentRange(
                    "asked for bytes \(requested.lowerBound)-\(requested.upperBound - 1), got \(first)-\(last)"))
            }
            return .accept(end: last + 1)
        case 200...299:
            let length = head.isChunked ? nil : head.contentLength
            return .refuse(length == total ? .linkIgnoresRanges : .linkServesAnotherFile(kept: total, offered: length))
        case 416:
            return .refuse(.linkServesAnotherFile(kept: total, offered: head.statedTotal))
        default:
            return .reject(head.statusError(host: host))
        }
    }

    /// Which validator of a response contradicts the recorded one, if any.
    static func changedValidator(head: ResponseHead, stored: RemoteValidators, host: String) -> String? {
        stored.contradicted(by: head.validators(from: host)).map { "\($0) changed since the download began" }
    }

    /// Whether a first answer allows splitting the rest of the file over several connections: a known
    /// length, ranges announced (or a 206 already), no content coding, and enough left for two parts.
    static func allowsSplitting(head: ResponseHead, total: Int64?, from position: Int64, minSplit: Int64) -> Bool {
        guard let total, total - position >= 2 * max(minSplit, 1) else { return false }
        guard head["content-encoding"].map({ $0.lowercased() == "identity" }) ?? true, !head.isChunked else { return false }
        return head.status == 206 || head["accept-ranges"]?.lowercased().contains("bytes") == true
    }
}
