import Foundation
import HaulCore
import HaulReport
import Testing

/// The headless lines: human text per event, the periodic summary, and JSON Lines.
@Suite struct PlainReporterTests {
    static func task(_ id: Int64, _ name: String, _ state: TaskState, done: Int64 = 0, total: Int64? = nil) -> DownloadTask {
        DownloadTask(
            id: TaskID(id), url: "https://user:secret@example.org/\(name)", directory: "/downloads", fileName: name,
            state: state, position: id, bytesDone: done, totalBytes: total)
    }

    static let snapshot = QueueSnapshot(
        rows: [
            QueueSnapshot.Row(task: task(1, "a.iso", .running, total: 1000), bytesReceived: 552, speed: 2048, eta: 65),
            QueueSnapshot.Row(task: task(2, "b.bin", .waiting), bytesReceived: 0),
        ],
        maxConcurrent: 3, totalSpeed: 2048, sequence: 1)

    @Test func summaryUsesTheSharedPercent() {
        let lines = PlainReporter(format: .human).progressLines(for: Self.snapshot)
        #expect(lines.count == 1)
        #expect(lines[0].hasPrefix("progress: 1 running · 1 waiting · 0 done · 0 failed"))
        #expect(lines[0].contains("#1 55.2% "))
        #expect(lines[0].contains("eta 1m05s"))
    }

    @Test func eventLinesHideCredentials() {
        let line = PlainReporter(format: .human).line(for: .added(Self.task(3, "c.txt", .waiting)))
        #expect(line.hasPrefix("#3 added      c.txt  https://"))
        #expect(!line.contains("secret"))
    }

    @Test func jsonLinesAreOneObjectEach() throws {
        let reporter = PlainReporter(format: .json, timeZone: TimeZone(secondsFromGMT: 3600)!)
        let moment = Date(timeIntervalSince1970: 1_795_000_000.25)
        let line = reporter.line(for: .completed(Self.task(4, "d \"q\".bin", .completed, done: 10, total: 10)), at: moment)
        let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "completed")
        // When, in ISO 8601 with the zone's offset.
        #expect(object["time"] as? String == "2026-11-18T12:06:40.250+01:00")
        #expect(object["name"] as? String == "d \"q\".bin")
        #expect(object["path"] as? String == "/downloads/d \"q\".bin")
        let progress = reporter.progressLines(for: Self.snapshot, at: moment)
        #expect(progress.count == 1)
        #expect(progress[0] == #"{"event":"progress","time":"2026-11-18T12:06:40.250+01:00","id":1,"name":"a.iso","bytes":552,"total":1000,"speed":2048.0,"eta":65.0}"#)
    }

    @Test func manyTasksChangedAtOnceAreOneLine() throws {
        let change = ControllerEvent.many(BulkChange(.paused, ids: (1...100_000).map { TaskID(Int64($0)) }))
        #expect(PlainReporter(format: .human).line(for: change) == "100000 task(s) paused")
        let reporter = PlainReporter(format: .json, timeZone: TimeZone(secondsFromGMT: 0)!)
        let line = reporter.line(for: .many(BulkChange(.removed, ids: [TaskID(1), TaskID(2), TaskID(3)])), at: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(line == #"{"event":"removed","time":"2026-11-18T11:06:40.000+00:00","count":3}"#)
    }
}
