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

    @Test func aRunningQueueTellsItsIdleTasksPausedInOneEvent() async throws {
        try queue()
        let controller = controller()
        let events = EventLog(controller.events())
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        #expect(await controller.perform(.pauseAll) == .changed(Self.count))
        let idle = (2...Self.count).map { TaskID(Int64($0)) }
        try await eventually("the pause told", timeout: .seconds(20)) { events.contains(.many(BulkChange(.paused, ids: idle))) }
        // Not 1,999 `paused` events kept for every subscriber; the running task's comes once the engine stopped it.
        #expect(events.count { if case .paused = $0 { true } else { false } } == 0)
        await controller.stop()
        _ = await run.value
    }

    @Test func aPauseAndAResumeOfEveryTaskCopyNoTaskTheSnapshotShares() async throws {
        try queue()
        let controller = controller()
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        try await eventually("every row", timeout: .seconds(20)) { box.read().rows.count == Self.count }
        let before = Dictionary(uniqueKeysWithValues: box.read().rows.map { ($0.id, $0.task) })
        // Copies of the tasks' fields while the last snapshot holds them: 100,000 of them stayed resident in the daemon.
        func shared() -> Int {
            box.read().rows.filter { row in before[row.id].map { row.task.storage.isShared(with: $0.storage) } ?? false }.count
        }
        #expect(await controller.perform(.pauseAll) == .changed(Self.count))
        #expect(box.read().count(of: .paused) == Self.count)
        #expect(shared() >= Self.count - 1, "idle tasks copied by the pause")
        #expect(await controller.perform(.resumeAll(only: nil)) == .changed(Self.count))
        #expect(shared() >= Self.count - 2, "idle tasks copied by the resume")
        await controller.stop()
        _ = await run.value
    }

    /// Paused and failed tasks, and a finished live recording (its resume starts a new part).
    func pausedQueue() throws -> TaskID {
        try queue()
        _ = try store.memory.pauseEveryTask()
        var failed = try #require(store.memory.task(2))
        failed.state = .failed
        failed.attempts = 4
        failed.lastError = "HTTP 503"
        var recording = try #require(store.memory.task(3))
        recording.state = .completed
        recording.kind = .live
        recording.fileName = "news.ts"
        recording.bytesDone = 500
        try store.memory.save([failed, recording])
        return recording.id
    }

    @Test func aControllerThatOnlyEditsResumesEveryTaskWithoutReadingTheQueue() async throws {
        let recording = try pausedQueue()
        store.reset()
        #expect(await controller(publishes: false).perform(.resumeAll(only: nil)) == .changed(Self.count))
        // One statement for the paused and failed ones; the recording read in a page and written as its resume makes it.
        #expect(store.counts == CountingStore.Counts(rowsRead: 0, rowsSaved: 1, storeResumes: 1, rowsPaged: 1, largestPage: 1))
        let all = try store.memory.loadAll()
        #expect(all.allSatisfy { $0.state == .waiting && $0.attempts == 0 && $0.lastError == nil })
        let next = try #require(store.memory.task(recording.rawValue))
        #expect(next.requestedName == SafeFileName.next(after: "news.ts") && next.fileName == nil && next.bytesDone == 0)
    }

    @Test func aControllerThatOnlyEditsRetriesTheFailedTasksAlone() async throws {
        _ = try pausedQueue()
        store.reset()
        #expect(await controller(publishes: false).perform(.resumeAll(only: .failed)) == .changed(1))
        #expect(store.counts == CountingStore.Counts(storeResumes: 1))
        #expect(store.memory.task(2)?.state == .waiting && store.memory.task(1)?.state == .paused)
        #expect(store.memory.task(3)?.state == .completed)
    }

    @Test func aRunningQueueResumesItsIdleTasksInOneWrite() async throws {
        let recording = try pausedQueue()
        let controller = controller()
        let run = Task { await controller.run() }
        try await eventually("loaded", timeout: .seconds(20)) { box.read().rows.count == Self.count }
        store.reset()
        #expect(await controller.perform(.resumeAll(only: nil)) == .changed(Self.count))
        // Every paused and failed row by its state, attempts and error in one call; the recording's whole row.
        let counts = store.counts
        #expect(counts.rowsMarkedResumed == Self.count - 1 && counts.rowsRead == 0 && counts.rowsPaged == 0)
        try await eventually("the recording's new part", timeout: .seconds(20)) {
            store.memory.task(recording.rawValue)?.requestedName == SafeFileName.next(after: "news.ts")
        }
        #expect(box.read().count(of: .paused) == 0 && box.read().count(of: .failed) == 0)
        await controller.stop()
        _ = await run.value
    }

    @Test func aControllerThatOnlyEditsRemovesEveryTaskAPageAtATime() async throws {
        try queue()
        var finished = try #require(store.memory.task(5))
        finished.state = .completed
        try store.memory.save([finished])
        store.reset()
        #expect(await controller(publishes: false).perform(.removeAll(only: nil, deleteFile: true)) == .changed(Self.count))
        let counts = store.counts
        #expect(counts.rowsRead == 0 && counts.rowsDeleted == Self.count && counts.rowsPaged == Self.count)
        #expect(counts.largestPage <= DownloadController.bulkPage)
        #expect(try store.memory.loadAll().isEmpty)
        // Each unfinished task's part file, as `remove --delete-file` deletes it; never a finished file.
        let deleted = driver.commands.compactMap { if case let .deletePart(id, _, _) = $0 { id } else { nil } }
        #expect(deleted.count == Self.count - 1 && !deleted.contains(TaskID(5)))
    }

    @Test func aControllerThatOnlyEditsRemovesTheCompletedTasksAlone() async throws {
        try queue()
        let done = (10...19).compactMap { store.memory.task($0) }.map { task in
            var task = task
            task.state = .completed
            return task
        }
        try store.memory.save(done)
        store.reset()
        #expect(await controller(publishes: false).perform(.removeAll(only: .completed, deleteFile: false)) == .changed(10))
        #expect(store.counts == CountingStore.Counts(rowsPaged: 10, largestPage: 10, rowsDeleted: 10, deletes: 1))
        #expect(try store.memory.loadAll().count == Self.count - 10)
        #expect(driver.commands.isEmpty)
    }

    @Test func aRunningQueueRemovesEveryTaskInOneDeleteAndOneEvent() async throws {
        try queue()
        let controller = controller()
        let events = EventLog(controller.events())
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        // Settings of its own for a waiting task: the controller keeps them, but the engine does not hold the task.
        await controller.perform(.setTaskConnections(TaskID(2), 4))
        store.reset()
        #expect(await controller.perform(.removeAll(only: nil, deleteFile: false)) == .changed(Self.count))
        #expect(store.counts == CountingStore.Counts(rowsRead: 0, rowsDeleted: Self.count, deletes: 1))
        // Each idle task told by id (aria2 clients are told of each); the last thousand kept as they were, for
        // clients that list removed tasks.
        let idle = (2...Self.count).map { TaskID(Int64($0)) }
        try await eventually("the removal told", timeout: .seconds(20)) {
            events.count { if case let .many(change) = $0 { change.edit == .removed && change.ids == idle } else { false } } == 1
        }
        let told = events.all.compactMap { if case let .many(change) = $0 { change } else { nil } }.first
        #expect(told?.removed.map(\.id) == Array(idle.suffix(BulkChange.removedKept)))
        // The running task is stopped and told of on its own; the others in the one event.
        #expect(events.count { if case .removed = $0 { true } else { false } } == 1)
        #expect(driver.commands.contains(.pause(TaskID(1))))
        #expect(box.read().rows.isEmpty)
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
        var rowsMarkedResumed = 0
        var storeResumes = 0
        /// Rows read a page at a time, and the largest page.
        var rowsPaged = 0
        var largestPage = 0
        var rowsDeleted = 0
        var deletes = 0
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
    func markResumed(_ ids: [TaskID]) throws {
        tally.withLock { $0.rowsMarkedResumed += ids.count }
        try memory.markResumed(ids)
    }
    func resumeEveryTask(in states: [TaskState]) throws -> Int {
        tally.withLock { $0.storeResumes += 1 }
        return try memory.resumeEveryTask(in: states)
    }
    func page(after: TaskID?, in states: [TaskState]?, kind: TaskKind?, limit: Int) throws -> [DownloadTask] {
        let page = try memory.page(after: after, in: states, kind: kind, limit: limit)
        tally.withLock { tally in
            tally.rowsPaged += page.count
            tally.largestPage = max(tally.largestPage, page.count)
        }
        return page
    }
    func recordProgress(_ durableBytes: [TaskID: Int64]) throws { try memory.recordProgress(durableBytes) }
    func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws { try memory.recordSegments(segments) }
    func delete(_ ids: [TaskID]) throws {
        tally.withLock { tally in
            tally.rowsDeleted += ids.count
            tally.deletes += 1
        }
        try memory.delete(ids)
    }
    func move(_ id: TaskID, by offset: Int) throws {}
    func externalChangeToken() throws -> Int64 { try memory.externalChangeToken() }
    func loadMaxConcurrent() throws -> Int? { nil }
    func saveMaxConcurrent(_ value: Int) throws {}
    func loadSchedule() throws -> Schedule? { nil }
    func saveSchedule(_ schedule: Schedule) throws {}
}

/// The events a controller told, kept as they come.
final class EventLog: Sendable {
    private let seen = PthreadMutex<[ControllerEvent]>([])
    private let reader: Task<Void, Never>

    init(_ events: AsyncStream<ControllerEvent>) {
        let seen = seen
        reader = Task { for await event in events { seen.withLock { $0.append(event) } } }
    }

    deinit { reader.cancel() }

    func contains(_ event: ControllerEvent) -> Bool { seen.withLock { $0.contains(event) } }
    func count(where matches: (ControllerEvent) -> Bool) -> Int { seen.withLock { $0.filter(matches).count } }
    var all: [ControllerEvent] { seen.withLock { $0 } }
}
