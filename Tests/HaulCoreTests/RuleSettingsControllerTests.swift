import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// What a settings rule stored with a task (connections, a cap) is what its transfers start with; a live change
/// wins over it; a reloaded settings file changes the run's caps live without touching the rule's.
@Suite(.timeLimit(.minutes(1))) struct RuleSettingsControllerTests {
    @Test func aRulesConnectionsAndCapStartWithTheTaskAndReloadedCapsApplyLive() async throws {
        let store = MemoryTaskStore()
        let driver = ScriptedDriver()
        let box = SnapshotBox()
        let controller = DownloadController(
            store: store, driver: driver, snapshots: box,
            configuration: .init(maxConcurrent: 3, transferOptions: TransferOptions(rateLimit: 1 << 20, split: 4)))
        var tasks = newTasks(3)
        tasks[0].requestOptions.split = 2
        tasks[0].requestOptions.rateLimit = 100 << 10
        tasks[0].requestOptions.rule = "host = \"a\" (c.toml:1)"
        tasks[1].requestOptions.rateLimit = 200 << 10
        await controller.perform(.add(tasks))
        await controller.perform(.setTaskLimit(TaskID(2), nil))
        let run = Task { await controller.run() }
        try await eventually("three started", timeout: .seconds(20)) { driver.started.count == 3 }
        var started: [TaskID: TransferOptions] = [:]
        for case let .start(request) in driver.commands { started[request.id] = request.options }
        #expect(started[TaskID(1)]?.split == 2 && started[TaskID(1)]?.rateLimit == 100 << 10, "the rule's")
        #expect(started[TaskID(2)]?.rateLimit == nil, "a live change wins over the rule")
        #expect(started[TaskID(3)]?.split == 4 && started[TaskID(3)]?.rateLimit == 1 << 20, "the run's")
        await controller.publishInitialSnapshot()
        let rows = Dictionary(uniqueKeysWithValues: box.read().rows.map { ($0.id, $0) })
        #expect(rows[TaskID(1)]?.split == 2 && rows[TaskID(1)]?.rateLimit?.bytesPerSecond == 100 << 10)

        // The settings file read again: a new run cap reaches only the transfer that follows the run's cap.
        let sentBefore = driver.commands.count
        await controller.applySettings(
            maxConcurrent: 5, retryPolicy: RetryPolicy(maxRetries: 1),
            transferOptions: TransferOptions(rateLimit: 2 << 20, split: 4), overallLimit: RateLimit(bytesPerSecond: 8 << 20))
        let sent = Array(driver.commands.dropFirst(sentBefore))
        #expect(sent.contains(.setOverallLimit(8 << 20)), "\(sent)")
        #expect(sent.contains(.setTaskLimit(TaskID(3), 2 << 20)), "\(sent)")
        #expect(!sent.contains { if case let .setTaskLimit(id, _) = $0 { id != TaskID(3) } else { false } }, "\(sent)")
        await controller.publishInitialSnapshot()
        #expect(box.read().maxConcurrent == 5)
        #expect(box.read().overallLimit?.bytesPerSecond == 8 << 20)
        await controller.stop()
        _ = await run.value
    }
}
