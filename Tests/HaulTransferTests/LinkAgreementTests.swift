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

    @Test func aMirrorsFirstAnswerIsCheckedAgainstTheMainLinksValidators() {
        func first(_ head: ResponseHead, main: RemoteValidators) -> LinkAgreement.Verdict {
            LinkAgreement.verdict(
                head: head, requested: 1000..<2000, total: 4000, validators: RemoteValidators(), host: "b",
                othersLive: true, main: main)
        }
        let nginx = RemoteValidators(etag: "\"a1\"", lastModified: "Mon, 02 Nov 2026 10:00:00 GMT", server: "nginx/1.26", host: "a")
        // Another Last-Modified: another file, whatever the server.
        let older = Self.head(
            "HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "Server: Apache/2.4",
            "ETag: \"b7-c\"", "Last-Modified: Sun, 01 Nov 2026 10:00:00 GMT")
        #expect(first(older, main: nginx)
            == .drop("it serves another file: Last-Modified is Sun, 01 Nov 2026 10:00:00 GMT where the main link's is Mon, 02 Nov 2026 10:00:00 GMT"))
        // The same server software words the same file's ETag the same way.
        let otherTag = Self.head(
            "HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "Server: nginx/1.24", "ETag: \"a2\"")
        #expect(first(otherTag, main: nginx) == .drop("it serves another file: the ETag is \"a2\" where the main link's is \"a1\""))
        // Another server's ETag says nothing; the same Last-Modified is the same file.
        let apache = Self.head(
            "HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000", "Server: Apache/2.4",
            "ETag: \"b7-c\"", "Last-Modified: Mon, 02 Nov 2026 10:00:00 GMT")
        #expect(first(apache, main: nginx) == .keep(.accept(end: 2000)))
        // A mirror without validators cannot be judged by them (its sample is compared instead).
        let bare = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/4000")
        #expect(first(bare, main: nginx) == .keep(.accept(end: 2000)))
    }

    @Test func theLastLinkKeepsTheRulesOfATaskWithOneLink() {
        let longer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1999/5000")
        #expect(verdict(longer, othersLive: false) == .keep(.changed("the file is now 5000 bytes, was 4000")))
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 4000"), othersLive: false) == .keep(.ignoresRanges))
    }
}
