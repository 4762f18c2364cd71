import HaulCore
import Testing
@testable import HaulTransfer

/// The same file behind a link on another server (DESIGN §8): an ETag is the server software's own wording, so
/// it is compared only with one from the same software or host; the length and Last-Modified always count.
struct NewLinkServerTests {
    static let modified = "Tue, 24 Nov 2026 10:00:00 GMT"
    /// The kept bytes came from nginx on `old.example`.
    static let stored = RemoteValidators(
        etag: "\"6743f8a0-3e8\"", lastModified: modified, server: "nginx/1.24.0", host: "old.example")

    static func head(server: String, etag: String, modified: String = modified) -> ResponseHead {
        var head = ResponseHead()
        for line in ["HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1015/4000", "Server: \(server)",
                     "ETag: \(etag)", "Last-Modified: \(modified)", ""] {
            _ = head.feed(line + "\r\n")
        }
        return head
    }

    func verdict(_ head: ResponseHead, host: String) -> ResumeCheck.Verdict {
        ResumeCheck.verdict(
            head: head, requestedOffset: 1000, expectedTotal: 4000, storedValidators: Self.stored, host: host, newLink: .sameFile)
    }

    func range(_ head: ResponseHead, host: String) -> RangeCheck.Verdict {
        RangeCheck.verdict(
            head: head, requested: 1000..<1016, total: 4000, validators: Self.stored, host: host, newLink: .sameFile)
    }

    @Test func anotherServerSoftwaresETagIsNotComparedAndTheSameLengthAndDateKeepTheBytes() {
        let apache = Self.head(server: "Apache/2.4.62 (Debian)", etag: "\"3e8-5f1e2a3b4c5d6\"")
        #expect(verdict(apache, host: "new.example") == .append(offset: 1000, total: 4000))
        #expect(range(apache, host: "new.example") == .accept(end: 1016))
    }

    @Test func anotherServerSoftwareWithAnotherDateIsRefusedNamingLastModified() {
        let apache = Self.head(server: "Apache/2.4.62", etag: "\"3e8-5f1e2a3b4c5d6\"", modified: "Wed, 25 Nov 2026 10:00:00 GMT")
        let mismatch = RemoteValidators.Mismatch(
            validator: .lastModified, recorded: Self.modified, offered: "Wed, 25 Nov 2026 10:00:00 GMT")
        #expect(verdict(apache, host: "new.example") == .reject(.linkDisagrees(mismatch)))
    }

    @Test func theSameSoftwareOnAnotherHostOrAnotherSoftwareOnTheSameHostComparesETags() {
        let otherNginx = Self.head(server: "nginx/1.26.2", etag: "\"6743f8a0-3e9\"")
        let mismatch = RemoteValidators.Mismatch(validator: .etag, recorded: "\"6743f8a0-3e8\"", offered: "\"6743f8a0-3e9\"")
        #expect(verdict(otherNginx, host: "new.example") == .reject(.linkDisagrees(mismatch)))
        let apacheHere = Self.head(server: "Apache", etag: "\"6743f8a0-3e9\"")
        #expect(range(apacheHere, host: "old.example") == .refuse(.linkDisagrees(mismatch)))
    }

    @Test func anETagFromAnotherHostWithoutAServerHeaderIsNotCompared() {
        var head = ResponseHead()
        for line in ["HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1015/4000", "ETag: \"x\"", ""] {
            _ = head.feed(line + "\r\n")
        }
        #expect(verdict(head, host: "new.example") == .append(offset: 1000, total: 4000))
    }

    @Test func theRefusalNamesTheValidatorAndBothValuesInPlainEnglish() {
        let text = DownloadError.linkDisagrees(
            RemoteValidators.Mismatch(validator: .etag, recorded: "\"v1\"", offered: "\"v2\"")).description
        #expect(text.hasPrefix("the new link's ETag is \"v2\", the kept bytes came with \"v1\""), "\(text)")
        #expect(!text.contains("the the") && !text.contains("link's the"), "\(text)")
        #expect(text.contains("--keep-bytes") && text.contains("--restart"))
    }
}
