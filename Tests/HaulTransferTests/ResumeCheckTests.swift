import HaulCore
import Testing
@testable import HaulTransfer

/// The pure decision on a final response (DESIGN §5), including servers that ignore If-Range.
@Suite struct ResumeCheckTests {
    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.feed(line + "\r\n") }
        return head
    }

    let stored = RemoteValidators(etag: "\"v1\"", lastModified: "Mon, 06 Jan 2025 10:00:00 GMT")

    func verdict(_ head: ResponseHead, offset: Int64 = 1000, total: Int64? = 4000) -> ResumeCheck.Verdict {
        ResumeCheck.verdict(head: head, requestedOffset: offset, expectedTotal: total, storedValidators: stored, host: "h")
    }

    @Test func aMatching206Appends() {
        let head = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000", "ETag: \"v1\"")
        #expect(verdict(head) == .append(offset: 1000, total: 4000))
    }

    @Test func a206WithAnotherETagIsAnotherFile() {
        let head = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000", "ETag: \"v2\"")
        guard case .discardAndRetry = verdict(head) else {
            Issue.record("a 206 of a changed file was appended")
            return
        }
    }

    @Test func a206WithAnotherDateIsAnotherFile() {
        let head = Self.head(
            "HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-3999/4000",
            "Last-Modified: Tue, 07 Jan 2025 10:00:00 GMT")
        guard case .discardAndRetry = verdict(head) else {
            Issue.record("a 206 with a new Last-Modified was appended")
            return
        }
    }

    @Test func a206ElsewhereOrOfAnotherSizeIsRefused() {
        guard case .reject = verdict(Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 0-3999/4000")) else {
            Issue.record("a range from the wrong start was accepted")
            return
        }
        guard case .discardAndRetry = verdict(Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-4999/5000")) else {
            Issue.record("a new total was accepted")
            return
        }
    }

    @Test func a200RestartsAndSaysWhy() {
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 4000", "ETag: \"v1\"")) == .restart(total: 4000, reason: "server ignores ranges"))
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 5000", "ETag: \"v2\"")) == .restart(total: 5000, reason: "remote file changed"))
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 10"), offset: 0, total: nil) == .restart(total: 10, reason: nil))
    }

    @Test func a200ShorterUnderTheSameStrongETagIsALie() {
        guard case .reject(.invalidResponse) = verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 3000", "ETag: \"v1\"")) else {
            Issue.record("a shortened file under the same ETag was accepted")
            return
        }
    }

    @Test func a416AtTheTotalIsComplete() {
        #expect(verdict(Self.head("HTTP/1.1 416 Range Not Satisfiable", "Content-Range: bytes */4000"), offset: 4000) == .alreadyComplete(total: 4000))
        guard case .discardAndRetry = verdict(Self.head("HTTP/1.1 416 Range Not Satisfiable", "Content-Range: bytes */3000")) else {
            Issue.record("a 416 of another size was taken as complete")
            return
        }
    }

    @Test func a416WithoutARangeFailsAtOnce() {
        let head = Self.head("HTTP/1.1 416 Range Not Satisfiable", "Content-Range: bytes */0")
        guard case let .reject(error) = verdict(head, offset: 0, total: nil) else {
            Issue.record("a 416 to a request without a Range was not refused")
            return
        }
        guard case .httpStatus(416, _, "h", nil) = error else {
            Issue.record("a 416 without a Range failed as \(error)")
            return
        }
        #expect(!error.isTransient)
        #expect(error.description.contains("no range was sent"))
    }

    @Test func headerBytesThatAreNotUTF8AreLatin1() {
        var head = ResponseHead()
        let lines: [[UInt8]] = [
            Array("HTTP/1.1 200 OK\r\n".utf8),
            Array("Content-Disposition: attachment; filename=\"caf".utf8) + [0xE9] + Array(".txt\"\r\n".utf8),
            Array("\r\n".utf8),
        ]
        for line in lines { _ = line.withUnsafeBytes { head.feed(bytes: $0) } }
        #expect(head["content-disposition"] == "attachment; filename=\"café.txt\"")
    }

    @Test func errorsCarryStatusAndRetryAfter() {
        #expect(verdict(Self.head("HTTP/1.1 503 Service Unavailable", "Retry-After: 7"))
            == .reject(.httpStatus(code: 503, reason: "Service Unavailable", host: "h", retryAfter: 7)))
    }
}
