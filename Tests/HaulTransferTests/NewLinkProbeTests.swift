import HaulCore
import Testing
@testable import HaulTransfer

/// What `haul set-url` asks a new link at once and what the answer decides (DESIGN §8), without I/O.
struct NewLinkProbeTests {
    static func task(bytesDone: Int64 = 1000, total: Int64? = 4000) -> DownloadTask {
        var task = DownloadTask(
            id: TaskID(1), url: "https://old.example/f.bin", directory: "/d", state: .paused, position: 0,
            bytesDone: bytesDone, totalBytes: total,
            validators: RemoteValidators(etag: "\"v1\"", lastModified: "Mon, 06 Jan 2025 10:00:00 GMT", server: "nginx", host: "old.example"))
        task.kind = .file
        return task
    }

    static func head(_ lines: String...) -> ResponseHead {
        var head = ResponseHead()
        for line in lines + [""] { _ = head.feed(line + "\r\n") }
        return head
    }

    func verdict(_ head: ResponseHead, _ change: LinkChange = .sameFile, host: String = "old.example") -> NewLinkProbe.Verdict {
        NewLinkProbe.verdict(head: head, requested: 1000..<1016, total: 4000, stored: Self.task().validators, host: host, change: change)
    }

    @Test func itAsksAFewBytesFromTheFirstByteNotKept() {
        #expect(NewLinkProbe.range(for: Self.task(), change: .sameFile) == 1000..<1016)
        #expect(NewLinkProbe.range(for: Self.task(), change: .keepBytes) == 1000..<1016)
        #expect(NewLinkProbe.range(for: Self.task(bytesDone: 3990), change: .sameFile) == 3990..<4000)
        // A file held whole: its last byte.
        #expect(NewLinkProbe.range(for: Self.task(bytesDone: 4000), change: .sameFile) == 3999..<4000)
    }

    @Test func nothingIsAskedWhenNothingCanBeSpliced() {
        #expect(NewLinkProbe.range(for: Self.task(), change: .restart) == nil)
        #expect(NewLinkProbe.range(for: Self.task(bytesDone: 0), change: .sameFile) == nil)
        #expect(NewLinkProbe.range(for: Self.task(total: nil), change: .sameFile) == nil)
        var segmented = Self.task(bytesDone: 0)
        segmented.segments = [SegmentRecord(start: 2000, end: 4000, committed: 100)]
        #expect(NewLinkProbe.range(for: segmented, change: .sameFile) == 0..<16)
    }

    @Test func theSameFileIsTakenAndAnotherIsRefusedNamingWhatDiffers() {
        #expect(verdict(Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1015/4000", "ETag: \"v1\"")) == .sameFile)
        let otherTag = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1015/4000", "ETag: \"v2\"")
        #expect(verdict(otherTag) == .refused(.linkDisagrees(.init(validator: .etag, recorded: "\"v1\"", offered: "\"v2\""))))
        #expect(verdict(otherTag, .keepBytes) == .sameFile)
        let longer = Self.head("HTTP/1.1 206 Partial Content", "Content-Range: bytes 1000-1015/5000")
        #expect(verdict(longer, .keepBytes) == .refused(.linkServesAnotherFile(kept: 4000, offered: 5000)))
        #expect(verdict(Self.head("HTTP/1.1 200 OK", "Content-Length: 4000")) == .refused(.linkIgnoresRanges))
    }

    @Test func anAnswerThatSaysNothingAboutTheFileLeavesTheCheckToTheResume() {
        guard case let .unconfirmed(reason) = verdict(Self.head("HTTP/1.1 503 Service Unavailable")) else {
            Issue.record("a busy server decided the check")
            return
        }
        #expect(reason.contains("503"), "\(reason)")
        guard case .unconfirmed = verdict(Self.head("HTTP/1.1 404 Not Found")) else {
            Issue.record("a missing file decided the check")
            return
        }
    }
}
