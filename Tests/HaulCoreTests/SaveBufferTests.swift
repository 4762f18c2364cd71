import Foundation
import Testing
@testable import HaulCore

/// The controller's group commit as a value (`SaveBuffer`), without a store or real time.
struct SaveBufferTests {
    let start = ContinuousClock.now

    static func task(_ id: Int64, bytes: Int64) -> DownloadTask {
        DownloadTask(id: TaskID(id), url: "http://127.0.0.1/\(id)", directory: "/d", position: id, bytesDone: bytes)
    }

    @Test func theLatestChangeOfEachTaskIsKeptUntilWritten() {
        var buffer = SaveBuffer(now: start)
        #expect(buffer.isEmpty)
        buffer.take(Self.task(1, bytes: 10), segments: nil)
        buffer.take(Self.task(1, bytes: 20), segments: [SegmentRecord(start: 0, end: 100, committed: 20)])
        buffer.take(Self.task(2, bytes: 5), segments: nil)
        #expect(buffer.tasks.count == 2 && buffer.tasks[TaskID(1)]?.bytesDone == 20)
        #expect(buffer.segments[TaskID(1)]?.first?.committed == 20)
        buffer.take(Self.task(1, bytes: 30), segments: nil)
        #expect(buffer.segments[TaskID(1)]?.first?.committed == 20, "a change without a layout keeps the last layout")
        buffer.tasksWritten()
        #expect(!buffer.isEmpty && buffer.tasks.isEmpty)
        buffer.segmentsWritten()
        #expect(buffer.isEmpty)
    }

    @Test func progressIsRecordedAtMostOncePerSpacing() {
        var buffer = SaveBuffer(now: start)
        #expect(!buffer.progressDue(at: start.advanced(by: .milliseconds(10))))
        #expect(buffer.progressDue(at: start + SaveBuffer.spacing))
        buffer.progressRecorded(at: start + SaveBuffer.spacing)
        #expect(!buffer.progressDue(at: start + SaveBuffer.spacing + .milliseconds(49)))
    }
}
