import HaulCore
import Testing

/// Which unfinished task a link added again without `-o` may continue (`RerunMatch`).
struct RerunMatchTests {
    static func task(
        _ id: TaskID, url: String, fileName: String?, state: TaskState = .failed, bytes: Int64 = 4096,
        total: Int64? = 1 << 20, directory: String = "/d", requestedName: String? = nil
    ) -> DownloadTask {
        var task = DownloadTask(
            id: id, url: url, directory: directory, requestedName: requestedName, fileName: fileName, state: state,
            position: id.rawValue, bytesDone: bytes, totalBytes: total)
        task.kind = .file
        return task
    }

    static let fresh = NewTask(url: "http://127.0.0.1/new/film.bin", directory: "/d")

    @Test func aTaskHoldingBytesUnderTheNameTheURLGivesIsTheCandidate() {
        let held = Self.task(TaskID(1), url: "http://127.0.0.1/old/film.bin", fileName: "film.bin")
        let other = Self.task(TaskID(2), url: "http://127.0.0.1/old/song.bin", fileName: "song.bin")
        let found = RerunMatch.candidates(for: Self.fresh, among: [other, held])
        #expect(found == [RerunMatch.Candidate(task: held, basis: .urlName)])
        #expect(RerunMatch.names(found[0], serverName: nil))
        #expect(RerunMatch.names(found[0], serverName: "other.bin"), "the URL's name decided it")
    }

    @Test func tasksThatCannotBeContinuedAreNotCandidates() {
        let url = "http://127.0.0.1/old/film.bin"
        let excluded = [
            Self.task(TaskID(1), url: url, fileName: "film.bin", state: .completed),
            Self.task(TaskID(2), url: url, fileName: "film.bin", bytes: 0),
            Self.task(TaskID(3), url: url, fileName: "film.bin", total: nil),
            Self.task(TaskID(4), url: url, fileName: "film.bin", directory: "/elsewhere"),
            Self.task(TaskID(5), url: Self.fresh.url, fileName: "film.bin"),
        ]
        #expect(RerunMatch.candidates(for: Self.fresh, among: excluded).isEmpty)
        // A numbered name is not the URL's: only an answer naming it so could match it.
        let numbered = RerunMatch.candidates(for: Self.fresh, among: [Self.task(TaskID(6), url: url, fileName: "film (1).bin")])
        #expect(numbered.map(\.basis) == [.serverName])
        #expect(!RerunMatch.names(numbered[0], serverName: "film.bin"))
        var streamed = Self.task(TaskID(7), url: url, fileName: "film.bin")
        streamed.stream = StreamInfo(tracks: [])
        streamed.kind = .stream
        #expect(RerunMatch.candidates(for: Self.fresh, among: [streamed]).isEmpty)
        var named = Self.fresh
        named.requestedName = "film.bin"
        #expect(RerunMatch.candidates(for: named, among: [Self.task(TaskID(8), url: url, fileName: "film.bin")]).isEmpty,
                "-o is the controller's rule")
    }

    @Test func aTaskItsServerNamedIsACandidateOnlyWhenTheAnswerNamesItToo() {
        let named = Self.task(TaskID(1), url: "http://127.0.0.1/get/1", fileName: "report.bin")
        let byURL = Self.task(TaskID(2), url: "http://127.0.0.1/x/song.bin", fileName: "song.bin")
        let found = RerunMatch.candidates(for: NewTask(url: "http://127.0.0.1/get/2", directory: "/d"), among: [named, byURL])
        #expect(found == [RerunMatch.Candidate(task: named, basis: .serverName)])
        #expect(RerunMatch.names(found[0], serverName: "report.bin"))
        #expect(!RerunMatch.names(found[0], serverName: "other.bin"))
        #expect(!RerunMatch.names(found[0], serverName: nil))
    }

    @Test func atMostAFewCandidatesAreAskedInQueueOrder() {
        let many = (1...9).reversed().map { Self.task(TaskID(Int64($0)), url: "http://127.0.0.1/get/\($0)", fileName: "r\($0).bin") }
        let found = RerunMatch.candidates(for: NewTask(url: "http://127.0.0.1/get/x", directory: "/d"), among: many)
        #expect(found.map(\.task.id.rawValue) == [1, 2, 3])
    }
}
