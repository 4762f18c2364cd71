import HaulCore
import Testing
@testable import HaulTransfer

/// The first answer of a replaced link (DESIGN §8): the kept bytes stay only when it serves the same file,
/// and never is anything discarded or spliced on its word alone.
struct NewLinkCheckTests {
    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.feed(line + "\r\n") }
        return head
    }

    let stored = RemoteValidators(etag: "\"v1\"")

    func first(_ head: ResponseHead, _ change: LinkChange = .sameFile) -> ResumeCheck.Verdict {
        ResumeCheck.verdict(
            head: head, requestedOffset: 1000, expectedTotal: 4000, storedValidators: stored, host: "h", newLink: change)
    }

    func range(_ head: ResponseHead, _ change: LinkChange = .sameFile) -> RangeCheck.Verdict {
        RangeCheck.verdict(head: head, requested: 1000..<2000, total: 4000, validators: stored, host: "h", newLink: change)
    }

    static let etagMismatch = RemoteValidators.Mismatch(validator: .etag, recorded: "\"v1\"", offered: "\"v2\"")

    @Test func theSameFileKeepsTheBytes() {
        let same = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000", "ETag: \"v1\"")
        #expect(first(same) == .append(offset: 1000, total: 4000))
        let noValidators = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000")
        #expect(range(noValidators) == .accept(end: 2000))
    }

    @Test func anotherLengthIsRefusedWithBothLengths() {
        let longer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-4999/5000", "ETag: \"v1\"")
        #expect(first(longer, .keepBytes) == .reject(.linkServesAnotherFile(kept: 4000, offered: 5000)))
        #expect(range(Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/5000"))
            == .refuse(.linkServesAnotherFile(kept: 4000, offered: 5000)))
        // A whole answer of another length, and a range past the end of a shorter file.
        #expect(first(Self.head("HTTP/1.1 200 OK", "Content-Length: 3000"))
            == .reject(.linkServesAnotherFile(kept: 4000, offered: 3000)))
        #expect(range(Self.head("HTTP/1.1 416 Range Not Satisfiable", "Content-Range: bytes */900"))
            == .refuse(.linkServesAnotherFile(kept: 4000, offered: 900)))
        // An unstated total is no proof of the same file.
        #expect(first(Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/*"))
            == .reject(.linkServesAnotherFile(kept: 4000, offered: nil)))
        #expect(DownloadError.linkServesAnotherFile(kept: 4000, offered: 5000).description.contains("5000-byte"))
        #expect(DownloadError.linkServesAnotherFile(kept: 4000, offered: 5000).description.contains("4000-byte"))
    }

    @Test func anotherValidatorNeedsTheUsersWord() {
        let other = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000", "ETag: \"v2\"")
        #expect(first(other) == .reject(.linkDisagrees(Self.etagMismatch)))
        #expect(first(other, .keepBytes) == .append(offset: 1000, total: 4000))
        let otherRange = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "ETag: \"v2\"")
        #expect(range(otherRange) == .refuse(.linkDisagrees(Self.etagMismatch)))
        #expect(range(otherRange, .keepBytes) == .accept(end: 2000))
    }

    @Test func aWholeAnswerOfTheSameLengthCannotContinueTheBytes() {
        let whole = Self.head("HTTP/1.1 200 OK", "Content-Length: 4000", "ETag: \"v1\"")
        #expect(first(whole, .keepBytes) == .reject(.linkIgnoresRanges))
        #expect(range(whole) == .refuse(.linkIgnoresRanges))
    }

    @Test func anErrorStatusFailsAsAnyOther() {
        let gone = Self.head("HTTP/1.1 410 Gone")
        #expect(first(gone) == .reject(.httpStatus(code: 410, reason: "Gone", host: "h", retryAfter: nil)))
        #expect(range(gone) == .reject(.httpStatus(code: 410, reason: "Gone", host: "h", retryAfter: nil)))
    }

    @Test func nothingToCheckWithoutAReplacedLink() {
        // A restart keeps nothing; no link change is the usual check, which starts over on another ETag.
        let other = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000", "ETag: \"v2\"")
        let usual = ResumeCheck.verdict(head: other, requestedOffset: 1000, expectedTotal: 4000, storedValidators: stored, host: "h")
        guard case .discardAndRetry = usual else {
            Issue.record("a changed file under the same link was kept: \(usual)")
            return
        }
    }
}
