import Foundation
import HaulCore

/// The queue every file under `Fixtures/schemas/` holds, as the current store must read it back.
///
/// Each fixture writes the same tasks with the columns its schema had; a column a later migration added reads
/// as that migration's default. `tasks(through:)` gives the tasks of the fixture whose newest migration is
/// the last of `applied`.
enum PastQueue {
    static let linkChange = "2026-11-25-task-link-change"
    static let requestOptions = "2026-11-25-task-request-options"
    static let mirrors = "2026-11-25-task-mirrors"
    static let stream = "2026-11-26-task-stream"
    static let validatorSource = "2026-11-27-task-validator-source"
    static let setting = "2026-11-22-create-setting"
    static let segment = "2026-11-23-create-segment"

    /// The stored `maxConcurrent` setting, in every fixture that has the `setting` table.
    static let maxConcurrent = 3

    /// The tasks, by id, of a fixture written after the migrations in `applied`.
    static func tasks(through applied: Set<String>) -> [DownloadTask] {
        var tasks = [completed(), paused(), waiting(), failed()]
        if applied.contains(segment) {
            tasks[1].segments = [
                SegmentRecord(start: 0, end: 4 << 20, committed: 2048), SegmentRecord(start: 4 << 20, end: 8 << 20, committed: 2048),
            ]
        }
        if applied.contains(linkChange) {
            tasks[1].linkChange = .keepBytes
            tasks[1].linkHistory = ["https://old.example.org/b.bin"]
        }
        if applied.contains(requestOptions) {
            let proxy = "http://proxy.example:3128"
            tasks[2].requestOptions = RequestOptions(
                proxies: ProxySettings(http: proxy, https: proxy, noProxy: "localhost"), cookiesFile: "/home/u/cookies.txt")
            tasks[2].cookies = ["example.org\tFALSE\t/\tFALSE\t0\tsid\tabc123"]
        }
        if applied.contains(mirrors) {
            tasks[1].mirrors = ["https://mirror.example.net/b.bin"]
            tasks[1].droppedLinks = [DroppedLink(url: "https://dead.example.com/b.bin", reason: "404 Not Found")]
        }
        if applied.contains(stream) { tasks.append(streamTask()) }
        if applied.contains(validatorSource) {
            tasks[1].validators.server = "nginx/1.26.2"
            tasks[1].validators.host = "example.org"
        }
        // Each task's kind after the kind's migration: the finished, paused and failed ones answered as files (they
        // have a name), the waiting one never answered, the stream is one.
        let kinds: [TaskKind?] = [.file, .file, nil, .file, .stream]
        for index in tasks.indices { tasks[index].kind = kinds[index] }
        return tasks
    }

    static func date(_ text: String) -> Date {
        guard let date = UTCTimestamp.date(from: text) else { preconditionFailure("not a stored date: \(text)") }
        return date
    }

    static func completed() -> DownloadTask {
        DownloadTask(
            id: TaskID(1), url: "https://example.org/a.iso", directory: "/downloads", fileName: "a.iso", state: .completed,
            position: 1, bytesDone: 1 << 20, totalBytes: 1 << 20,
            validators: RemoteValidators(etag: "\"a-1\"", lastModified: "Sun, 22 Nov 2026 10:00:00 GMT"), attempts: 1,
            checksum: Checksum(parsing: "sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
            headers: ["X-Token: 1", "Accept: */*"], createdAt: date("2026-11-22 10:00:00.000"),
            finishedAt: date("2026-11-22 10:05:00.250"))
    }

    static func paused() -> DownloadTask {
        DownloadTask(
            id: TaskID(2), url: "https://example.org/b.bin?part=1", directory: "/downloads/sub dir",
            requestedName: "b renamed.bin", fileName: "b renamed.bin", state: .paused, position: 2, bytesDone: 4096,
            totalBytes: 8 << 20, validators: RemoteValidators(etag: "W/\"b-7\""), attempts: 3,
            lastError: "connection reset by peer", createdAt: date("2026-11-22 11:00:00.500"))
    }

    static func waiting() -> DownloadTask {
        DownloadTask(
            id: TaskID(3), url: "http://example.org/c", directory: "/downloads", state: .waiting, position: 3,
            createdAt: date("2026-11-22 12:00:00.000"))
    }

    static func failed() -> DownloadTask {
        DownloadTask(
            id: TaskID(4), url: "https://example.org/gone.zip", directory: "/downloads", fileName: "gone.zip", state: .failed,
            position: 4, attempts: 5, lastError: "the server answered 404 Not Found", createdAt: date("2026-11-22 13:00:00.000"),
            finishedAt: date("2026-11-22 13:00:02.000"))
    }

    /// A stream task, twelve of its sixty segments appended.
    static func streamTask() -> DownloadTask {
        var track = StreamTrackInfo(
            fingerprint: StreamFingerprint(mediaSequence: 0, segmentCount: 60, durations: 1_311_768_467_294_899_695),
            segmentCount: 60, durationSeconds: 360)
        track.segmentsDone = 12
        track.appendedBytes = 2_400_000
        track.doneSeconds = 72
        var task = DownloadTask(
            id: TaskID(5), url: "https://example.org/show/index.m3u8", directory: "/downloads", fileName: "index.ts",
            state: .paused, position: 5, bytesDone: 2_400_000, createdAt: date("2026-11-26 09:00:00.000"))
        task.stream = StreamInfo(tracks: [track], variant: "1280x720")
        return task
    }
}
