import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// Commands and their results: queue order on resume, batches, re-adding a URL, subscribers, warnings.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerCommandTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()

    func controller(max: Int = 2) -> DownloadController {
        DownloadController(
            store: store, driver: driver, snapshots: box,
            configuration: .init(maxConcurrent: max, retryPolicy: RetryPolicy(maxRetries: 5, baseDelay: 0.05)))
    }


    @Test func aResumedTaskTakesItsPlaceBackFromALaterOne() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        await controller.perform(.pause(TaskID(1)))
        try await eventually("second took the slot", timeout: .seconds(20)) { driver.started == [TaskID(1), TaskID(2)] }
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 5)))
        try await eventually("engine let go of the first", timeout: .seconds(20)) { store.task(1)?.bytesDone == 5 }
        await controller.perform(.resume(TaskID(1)))
        // Queue order decides: task 2 gives the slot back and resumes later from its bytes.
        #expect(driver.commands.contains(.pause(TaskID(2))))
        #expect(store.task(2)?.state == .waiting)
        try await eventually("first runs again", timeout: .seconds(20)) { driver.started == [TaskID(1), TaskID(2), TaskID(1)] }
        await controller.stop()
        _ = await run.value
    }

    @Test func aTaskQueuedPausedNeverStartsBeforeItIsResumed() async throws {
        let controller = controller(max: 2)
        let run = Task { await controller.run() }
        var paused = NewTask(url: "http://127.0.0.1/p.bin", directory: "/tmp/haul-tests")
        paused.startsPaused = true
        await controller.perform(.add([paused] + newTasks(1)))
        try await eventually("the other started", timeout: .seconds(20)) { driver.started == [TaskID(2)] }
        #expect(store.task(1)?.state == .paused)
        await controller.perform(.resume(TaskID(1)))
        try await eventually("resumed and started", timeout: .seconds(20)) { driver.started == [TaskID(2), TaskID(1)] }
        await controller.stop()
        _ = await run.value
    }

    @Test func removingSeveralWaitingTasksInOneBatchStartsNoneOfThem() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(4)))
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        // One batch (as `haul remove 2 3` sends it): slots are filled once, after every command.
        await controller.perform([.remove(TaskID(2), deleteFile: false), .remove(TaskID(3), deleteFile: false), .pause(TaskID(1))])
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 0)))
        try await eventually("task 4 started", timeout: .seconds(20)) { driver.started.last == TaskID(4) }
        #expect(driver.started == [TaskID(1), TaskID(4)])
        await controller.stop()
        _ = await run.value
    }

    @Test func resultsSayWhatHappened() async throws {
        let controller = controller()
        await controller.perform(.add(newTasks(1)))
        #expect(await controller.perform(.pause(TaskID(9))) == .unknownTask(TaskID(9)))
        #expect(await controller.perform(.pause(TaskID(1))) == .done)
        try store.save([DownloadTask(id: TaskID(1), url: "http://127.0.0.1/f1.bin", directory: "/tmp/haul-tests",
                                     state: .completed, position: 1)])
        let fresh = DownloadController(store: store, driver: ScriptedDriver(), snapshots: SnapshotBox(), configuration: .init())
        #expect(await fresh.perform(.pause(TaskID(1))) == .notAllowed(TaskID(1), state: .completed))
        #expect(await fresh.perform(.resume(TaskID(1))) == .notAllowed(TaskID(1), state: .completed))
        #expect(await fresh.perform(.move(TaskID(1), by: -1)) == .notAllowed(TaskID(1), state: .completed))
    }

    @Test func addingAnUnfinishedURLAgainReusesItsTask() async throws {
        let controller = controller()
        let first = await controller.perform(.add(newTasks(2)))
        guard case let .added(new, reused) = first else { Issue.record("not added: \(first)"); return }
        #expect(new.map(\.id) == [TaskID(1), TaskID(2)])
        #expect(reused.isEmpty)
        await controller.perform(.pause(TaskID(2)))
        var elsewhere = newTasks(1)[0]
        elsewhere.directory = "/tmp/other"
        let again = await controller.perform(.add(newTasks(2) + [elsewhere]))
        guard case let .added(newAgain, reusedAgain) = again else { Issue.record("not added: \(again)"); return }
        // Same URL, directory and name: the queued tasks carry on (a paused one resumes); another directory is new.
        #expect(reusedAgain.map(\.id) == [TaskID(1), TaskID(2)])
        #expect(reusedAgain.allSatisfy { $0.state == .waiting })
        #expect(newAgain.map(\.directory) == ["/tmp/other"])
        #expect(try store.loadAll().count == 3)
    }

    @Test func everySubscriberGetsEveryEvent() async throws {
        let controller = controller()
        let first = controller.events()
        let second = controller.events()
        await controller.perform(.add(newTasks(1)))
        await controller.perform(.remove(TaskID(1), deleteFile: false))
        var firstIterator = first.makeAsyncIterator()
        var secondIterator = second.makeAsyncIterator()
        for iterator in [0, 1] {
            let events = iterator == 0
                ? [await firstIterator.next(), await firstIterator.next()]
                : [await secondIterator.next(), await secondIterator.next()]
            #expect(events.map { event -> String in
                switch event {
                case .added?: "added"
                case .removed?: "removed"
                default: "other"
                }
            } == ["added", "removed"])
        }
    }

    @Test func aStoreFailureShowsInTheSnapshotUntilAWriteSucceeds() async throws {
        let failing = FailingStore()
        let controller = DownloadController(store: failing, driver: driver, snapshots: box, configuration: .init())
        let result = await controller.perform(.add(newTasks(1)))
        guard case .storeFailed = result else { Issue.record("expected a store failure, got \(result)"); return }
        #expect(box.read().warning?.contains("could not update the queue database") == true)
        failing.fails = false
        _ = await controller.perform(.add(newTasks(1)))
        #expect(box.read().warning == nil)
    }
}

/// A store whose writes fail while `fails` is set.
final class FailingStore: TaskStore, @unchecked Sendable {
    // Safe: the tests set `fails` only between awaited controller calls, never while one runs.
    var fails = true
    let memory = MemoryTaskStore()

    struct Broken: Error, CustomStringConvertible { var description: String { "disk I/O error" } }

    func loadAll() throws -> [DownloadTask] { try memory.loadAll() }
    func load(_ ids: [TaskID]) throws -> [DownloadTask] { try memory.load(ids) }
    func enqueue(_ tasks: [NewTask]) throws -> [DownloadTask] {
        if fails { throw Broken() }
        return try memory.enqueue(tasks)
    }
    func save(_ tasks: [DownloadTask]) throws { if fails { throw Broken() }; try memory.save(tasks) }
    func recordProgress(_ durableBytes: [TaskID: Int64]) throws { try memory.recordProgress(durableBytes) }
    func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws { try memory.recordSegments(segments) }
    func markPaused(_ ids: [TaskID]) throws { if fails { throw Broken() }; try memory.markPaused(ids) }
    func pauseEveryTask() throws -> Int {
        if fails { throw Broken() }
        return try memory.pauseEveryTask()
    }
    func markResumed(_ ids: [TaskID]) throws { if fails { throw Broken() }; try memory.markResumed(ids) }
    func resumeEveryTask(in states: [TaskState]) throws -> Int {
        if fails { throw Broken() }
        return try memory.resumeEveryTask(in: states)
    }
    func page(after: TaskID?, in states: [TaskState]?, kind: TaskKind?, limit: Int) throws -> [DownloadTask] {
        try memory.page(after: after, in: states, kind: kind, limit: limit)
    }
    func delete(_ ids: [TaskID]) throws { try memory.delete(ids) }
    func move(_ id: TaskID, by offset: Int) throws {}
    func externalChangeToken() throws -> Int64 { 0 }
    func loadMaxConcurrent() throws -> Int? { nil }
    func saveMaxConcurrent(_ value: Int) throws {}
    func loadSchedule() throws -> Schedule? { nil }
    func saveSchedule(_ schedule: Schedule) throws {}
}
