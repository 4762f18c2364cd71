import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// The controller and a task's mirrors (DESIGN §8), with a scripted engine.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerMirrorTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()

    func controller() -> DownloadController {
        DownloadController(
            store: store, driver: driver, snapshots: box,
            configuration: .init(maxConcurrent: 1, retryPolicy: RetryPolicy(maxRetries: 3, baseDelay: 0.05), exitWhenIdle: false))
    }

    func starts() -> [TransferRequest] {
        driver.commands.compactMap { if case let .start(request) = $0 { request } else { nil } }
    }

    @Test func theEngineGetsTheMirrorsAndADroppedLinkIsKeptWithTheTask() async throws {
        let controller = controller()
        var new = NewTask(url: "http://127.0.0.1/a.bin", directory: "/tmp/haul-tests")
        new.mirrors = ["http://127.0.0.2/a.bin"]
        await controller.perform(.add([new]))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { starts().count == 1 }
        #expect(starts()[0].mirrors == ["http://127.0.0.2/a.bin"])
        let dropped = DroppedLink(url: "http://127.0.0.2/a.bin", reason: "it serves 5 bytes where the file has 6")
        driver.emit(.linkDropped(TaskID(1), dropped))
        try await eventually("recorded", timeout: .seconds(20)) { store.task(1)?.droppedLinks == [dropped] }
        // The published snapshot follows the store's write: wait for it too.
        try await eventually("shown", timeout: .seconds(20)) {
            box.read().rows.first?.task.dropReason(of: "http://127.0.0.2/a.bin") == dropped.reason
        }
        await controller.stop()
        _ = await run.value
    }

    @Test func afterAServerIgnoredRangesTheRetryIsOneStreamFromOneLink() async throws {
        let controller = controller()
        var new = NewTask(url: "http://127.0.0.1/a.bin", directory: "/tmp/haul-tests")
        new.mirrors = ["http://127.0.0.2/a.bin"]
        await controller.perform(.add([new]))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { starts().count == 1 }
        driver.emit(.finished(TaskID(1), .failed(.rangesIgnored(host: "127.0.0.1"), durableBytes: 0)))
        try await eventually("retried", timeout: .seconds(20)) { starts().count == 2 }
        #expect(starts()[1].options.split == 1 && starts()[1].mirrors.isEmpty)
        await controller.stop()
        _ = await run.value
    }
}
