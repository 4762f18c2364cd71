import HaulCore
import Testing
@testable import HaulTransfer

/// A range answer from one link of a task with mirrors (DESIGN §8): the same length, ranges, its own
/// validators; else the link is dropped with its reason, unless it is the last one.
struct LinkAgreementTests {
    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.feed(line + "\r\n") }
        return head
    }

    func verdict(_ head: ResponseHead, validators: RemoteValidators = RemoteValidators(), othersLive: Bool = true)
        -> LinkAgreement.Verdict {
        LinkAgreement.verdict(
            head: head, requested: 1000..<2000, total: 4000, validators: validators, host: "b", othersLive: othersLive)
    }

    @Test func aMatchingRangeIsTakenWithTheMirrorsOwnValidators() {
        let answer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "ETag: \"mirror-b\"")
        // Another ETag than the main link's is fine: each link is checked against its own.
        #expect(verdict(answer) == .keep(.accept(end: 2000)))
        #expect(verdict(answer, validators: RemoteValidators(etag: "\"mirror-b\"")) == .keep(.accept(end: 2000)))
    }

    @Test func anotherLengthDropsTheLinkWithBothLengths() {
        let longer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/5000")
        #expect(verdict(longer) == .drop("it serves 5000 bytes where the file has 4000"))
        let whole = Self.head("HTTP/1.1 200 OK", "Content-Length: 3000")
        #expect(verdict(whole) == .drop("it serves 3000 bytes where the file has 4000"))
    }

    @Test func aWholeAnswerToARangeDropsTheLink() {
        let whole = Self.head("HTTP/1.1 200 OK", "Content-Length: 4000")
        guard case let .drop(reason) = verdict(whole) else { Issue.record("kept"); return }
        #expect(reason.contains("does not serve ranges"), "\(reason)")
    }

    @Test func validatorsThatChangeDropTheLink() {
        let changed = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "ETag: \"v2\"")
        guard case let .drop(reason) = verdict(changed, validators: RemoteValidators(etag: "\"v1\"")) else {
            Issue.record("kept"); return
        }
        #expect(reason.contains("ETag"), "\(reason)")
    }

    @Test func aPermanentErrorDropsTheLinkAndATransientOneCountsAsAFailure() {
        guard case let .drop(reason) = verdict(Self.head("HTTP/1.1 404 Not Found")) else { Issue.record("kept"); return }
        #expect(reason.contains("404"), "\(reason)")
        guard case .keep(.reject) = verdict(Self.head("HTTP/1.1 503 Service Unavailable")) else {
            Issue.record("a 503 should be retried"); return
        }
    }

    @Test func theLastLinkKeepsTheRulesOfATaskWithOneLink() {
        let longer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/5000")
        #expect(verdict(longer, othersLive: false) == .keep(.changed("the file is now 5000 bytes, was 4000")))
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 4000"), othersLive: false) == .keep(.ignoresRanges))
    }
}
