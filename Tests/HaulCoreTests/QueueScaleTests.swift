import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// A long queue costs what a command needs, not a record per task (issue 29: `haul pause --all` of 100,000 tasks read
/// the queue three times and wrote 100,000 whole rows): counted in rows the store reads and writes, for 2,000 tasks.
@Suite(.timeLimit(.minutes(1))) struct QueueScaleTests {
    static let count = 2_000
    let store = CountingStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()

    func controller(publishes: Bool = true) -> DownloadController {
        var configuration = DownloadController.Configuration(maxConcurrent: 1)
        configuration.publishes = publishes
        return DownloadController(store: store, driver: driver, snapshots: box, configuration: configuration)
    }

    func queue() throws {
        _ = try store.memory.enqueue((1...Self.count).map { NewTask(url: "http://127.0.0.1:9/f\($0).bin", directory: "/tmp/haul-tests") })
    }

    @Test func aControllerThatOnlyEditsPausesEveryTaskWithoutReadingOne() async throws {
        try queue()
        let result = await controller(publishes: false).perform(.pauseAll)
        #expect(result == .changed(Self.count))
        #expect(store.counts == CountingStore.Counts(rowsRead: 0, rowsSaved: 0, rowsMarkedPaused: 0, storePauses: 1))
        #expect(try store.memory.loadAll().allSatisfy { $0.state == .paused })
    }

    @Test func aRunningQueuePausesItsIdleTasksInOneWrite() async throws {
        try queue()
        let controller = controller()
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        store.reset()
        let result = await controller.perform(.pauseAll)
        #expect(result == .changed(Self.count))
        // The running task's row as it always was; every waiting one by its state alone, in one call.
        #expect(store.counts == CountingStore.Counts(rowsRead: 0, rowsSaved: 1, rowsMarkedPaused: Self.count - 1, storePauses: 0))
        #expect(box.read().count(of: .paused) == Self.count)
        await controller.stop()
        _ = await run.value
    }

    @Test func aControllerThatOnlyEditsBuildsNoSnapshotOfWhatItAdds() async throws {
        let controller = controller(publishes: false)
        let added = await controller.perform(.add((1...Self.count).map { NewTask(url: "http://127.0.0.1:9/a\($0).bin", directory: "/tmp/haul-tests") }))
        guard case let .added(new, _) = added else { Issue.record("\(added)"); return }
        #expect(new.count == Self.count)
        #expect(box.read().rows.isEmpty)
    }
}

/// `MemoryTaskStore`, counting the task rows it hands out and takes in.
final class CountingStore: TaskStore {
    struct Counts: Equatable, Sendable {
        var rowsRead = 0
        var rowsSaved = 0
        var rowsMarkedPaused = 0
        var storePauses = 0
    }

    let memory = MemoryTaskStore()
    private let tally = PthreadMutex(Counts())

    var counts: Counts { tally.withLock { $0 } }
    func reset() { tally.withLock { $0 = Counts() } }

    func loadAll() throws -> [DownloadTask] {
        let all = try memory.loadAll()
        tally.withLock { $0.rowsRead += all.count }
        return all
    }
    func load(_ ids: [TaskID]) throws -> [DownloadTask] {
        let some = try memory.load(ids)
        tally.withLock { $0.rowsRead += some.count }
        return some
    }
    func enqueue(_ tasks: [NewTask]) throws -> [DownloadTask] { try memory.enqueue(tasks) }
    func save(_ tasks: [DownloadTask]) throws {
        tally.withLock { $0.rowsSaved += tasks.count }
        try memory.save(tasks)
    }
    func markPaused(_ ids: [TaskID]) throws {
        tally.withLock { $0.rowsMarkedPaused += ids.count }
        try memory.markPaused(ids)
    }
    func pauseEveryTask() throws -> Int {
        tally.withLock { $0.storePauses += 1 }
        return try memory.pauseEveryTask()
    }
    func recordProgress(_ durableBytes: [TaskID: Int64]) throws { try memory.recordProgress(durableBytes) }
    func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws { try memory.recordSegments(segments) }
    func delete(_ ids: [TaskID]) throws { try memory.delete(ids) }
    func move(_ id: TaskID, by offset: Int) throws {}
    func externalChangeToken() throws -> Int64 { try memory.externalChangeToken() }
    func loadMaxConcurrent() throws -> Int? { nil }
    func saveMaxConcurrent(_ value: Int) throws {}
    func loadSchedule() throws -> Schedule? { nil }
    func saveSchedule(_ schedule: Schedule) throws {}
}
