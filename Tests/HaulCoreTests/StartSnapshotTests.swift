import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// The live list's first snapshot is built once (issue 29): the run that starts after it publishes again only what
/// changed since.
@Suite(.timeLimit(.minutes(1))) struct StartSnapshotTests {
    /// A queue of `count` paused tasks in a fresh store.
    func pausedQueue(_ count: Int) async -> MemoryTaskStore {
        let store = MemoryTaskStore()
        let editor = DownloadController(store: store, driver: ScriptedDriver(), snapshots: SnapshotBox(), configuration: .init())
        await editor.perform(.add(newTasks(count)))
        _ = await editor.perform((1...count).map { .pause(TaskID(Int64($0))) })
        await editor.finishEditing()
        return store
    }

    /// Waits until `run()` has gone through its start (it sends the overall cap then), and past it on the actor.
    func waitForStart(_ controller: DownloadController, _ driver: ScriptedDriver) async throws {
        try await eventually("the run started", timeout: .seconds(20)) {
            driver.commands.contains { if case .setOverallLimit = $0 { true } else { false } }
        }
        _ = await controller.currentSchedule()
    }

    @Test("a paused queue's first snapshot is not built again when the run starts")
    func pausedQueueBuiltOnce() async throws {
        let store = await pausedQueue(50)
        let driver = ScriptedDriver()
        let box = SnapshotBox()
        let controller = DownloadController(store: store, driver: driver, snapshots: box, configuration: .init())
        await controller.publishInitialSnapshot()
        #expect(box.read().sequence == 1 && box.read().rows.count == 50)
        let run = Task { await controller.run() }
        try await waitForStart(controller, driver)
        #expect(box.read().sequence == 1, "one snapshot built at the start")
        #expect(await controller.rowIndex == nil, "nothing runs: the rows are not indexed for patches")
        await controller.stop()
        _ = await run.value
    }

    @Test("a run that starts tasks publishes them after the first snapshot")
    func startedTasksPublished() async throws {
        let store = MemoryTaskStore()
        let driver = ScriptedDriver()
        let box = SnapshotBox()
        let controller = DownloadController(store: store, driver: driver, snapshots: box, configuration: .init(maxConcurrent: 2))
        await controller.perform(.add(newTasks(3)))
        await controller.publishInitialSnapshot()
        let first = box.read().sequence
        let run = Task { await controller.run() }
        try await waitForStart(controller, driver)
        #expect(box.read().sequence == first + 1)
        #expect(box.read().rows.filter { $0.task.state == .running }.count == 2)
        await controller.stop()
        _ = await run.value
    }
}
