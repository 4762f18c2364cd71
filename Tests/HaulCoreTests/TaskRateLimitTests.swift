import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// A cap set on one task while the queue runs wins over `--limit-rate`, "none" included; others inherit it.
@Suite(.timeLimit(.minutes(1))) struct TaskRateLimitTests {
    @Test func aTaskSetToNoLimitDropsTheRunsLimitAndOthersKeepIt() async throws {
        let store = MemoryTaskStore()
        let driver = ScriptedDriver()
        let box = SnapshotBox()
        let runLimit = try #require(RateLimit(bytesPerSecond: 1 << 20))
        let taskLimit = try #require(RateLimit(bytesPerSecond: 256 << 10))
        let controller = DownloadController(
            store: store, driver: driver, snapshots: box,
            configuration: .init(maxConcurrent: 3, transferOptions: TransferOptions(rateLimit: runLimit.bytesPerSecond)))
        await controller.perform(.add(newTasks(3)))
        let results = await controller.perform([.setTaskLimit(TaskID(2), nil), .setTaskLimit(TaskID(3), taskLimit)])
        #expect(results == [.done, .done])
        let run = Task { await controller.run() }
        try await eventually("three started", timeout: .seconds(20)) { driver.started.count == 3 }
        var limits: [TaskID: Int64?] = [:]
        for case let .start(request) in driver.commands { limits[request.id] = request.options.rateLimit }
        #expect(limits == [TaskID(1): runLimit.bytesPerSecond, TaskID(2): nil, TaskID(3): taskLimit.bytesPerSecond])
        await controller.publishInitialSnapshot()
        let shown = Dictionary(uniqueKeysWithValues: box.read().rows.map { ($0.id, $0.rateLimit) })
        #expect(shown == [TaskID(1): nil, TaskID(2): nil, TaskID(3): taskLimit], "rows show only a limit set for the task")
        await controller.stop()
        _ = await run.value
    }
}
