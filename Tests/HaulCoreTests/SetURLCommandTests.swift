import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// `set-url`: a new link for an unfinished task, the old one kept in its history without credentials; a running
/// task is stopped with its bytes and asks the new link next, with the check the user chose.
@Suite(.timeLimit(.minutes(1))) struct SetURLCommandTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()

    func controller() -> DownloadController {
        DownloadController(store: store, driver: driver, snapshots: SnapshotBox(), configuration: .init(maxConcurrent: 1))
    }

    func requests() -> [TransferRequest] {
        driver.commands.compactMap { if case let .start(request) = $0 { return request } else { return nil } }
    }

    @Test func aRunningTaskStopsWithItsBytesAndAsksTheNewLinkWithTheCheck() async throws {
        let controller = controller()
        await controller.perform(.add([NewTask(url: "http://user:secret@127.0.0.1/old.bin", directory: "/tmp/haul-tests")]))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        #expect(await controller.perform(.setURL(TaskID(1), url: "http://127.0.0.1/new.bin", change: .sameFile)) == .done)
        #expect(driver.commands.contains(.pause(TaskID(1))))
        let saved = try #require(store.task(1))
        #expect(saved.url == "http://127.0.0.1/new.bin")
        #expect(saved.linkHistory == ["http://127.0.0.1/old.bin"])
        #expect(saved.linkChange == .sameFile)
        // The engine lets go with 5 bytes synced; the next attempt asks the new link and checks its answer.
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 5)))
        try await eventually("started again", timeout: .seconds(20)) { driver.started.count == 2 }
        let next = try #require(requests().last)
        #expect(next.url == "http://127.0.0.1/new.bin")
        #expect(next.resumeFrom == 5)
        #expect(next.linkChange == .sameFile)
        await controller.stop()
        _ = await run.value
    }

    @Test func newMirrorsReplaceTheOldOnesAndARunningTaskStartsAgainWithThem() async throws {
        let controller = controller()
        var new = NewTask(url: "http://127.0.0.1:1/f.bin", directory: "/tmp/haul-tests")
        new.mirrors = ["http://127.0.0.1:2/f.bin"]
        await controller.perform(.add([new]))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        let result = await controller.perform(.setMirrors(TaskID(1), ["http://localhost:3/f.bin", "http://127.0.0.1:1/f.bin"]))
        #expect(result == .done)
        #expect(store.task(1)?.mirrors == ["http://localhost:3/f.bin"], "the main link is not its own mirror")
        #expect(driver.commands.contains(.pause(TaskID(1))))
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 9)))
        try await eventually("started again", timeout: .seconds(20)) { driver.started.count == 2 }
        #expect(requests().last?.mirrors == ["http://localhost:3/f.bin"])
        // A link the mirror rule refuses changes nothing; another scheme is no reason to refuse.
        let refused = await controller.perform(.setMirrors(TaskID(1), ["ftp://localhost:3/f.bin"]))
        guard case let .rejected(message) = refused else { Issue.record("accepted: \(refused)"); return }
        #expect(message.contains("ftp"))
        #expect(store.task(1)?.mirrors == ["http://localhost:3/f.bin"])
        #expect(await controller.perform(.setMirrors(TaskID(1), ["https://localhost:3/f.bin"])) == .done)
        #expect(store.task(1)?.mirrors == ["https://localhost:3/f.bin"])
        await controller.stop()
        _ = await run.value
    }

    @Test func restartDropsWhatWasKeptEvenWhenTheEngineSyncedMore() async throws {
        let controller = controller()
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        #expect(await controller.perform(.setURL(TaskID(1), url: "http://127.0.0.1/other.bin", change: .restart)) == .done)
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 700)))
        try await eventually("started again", timeout: .seconds(20)) { driver.started.count == 2 }
        let next = try #require(requests().last)
        #expect(next.url == "http://127.0.0.1/other.bin")
        #expect(next.resumeFrom == 0)
        #expect(next.segments == [])
        #expect(next.expectedTotal == nil)
        await controller.stop()
        _ = await run.value
    }

    @Test func theSameLinkAgainWithKeepBytesAnswersARefusalAndRetriesTheTask() async throws {
        let controller = controller()
        await controller.perform(.add(newTasks(1)))
        #expect(await controller.perform(.setURL(TaskID(1), url: "http://127.0.0.1/new.bin", change: .sameFile)) == .done)
        // The new link was refused (another ETag): the task failed with its bytes.
        var failed = try #require(store.task(1))
        failed.state = .failed
        failed.bytesDone = 9
        try store.save([failed])
        let fresh = DownloadController(store: store, driver: ScriptedDriver(), snapshots: SnapshotBox(), configuration: .init())
        #expect(await fresh.perform(.setURL(TaskID(1), url: "http://127.0.0.1/new.bin", change: .keepBytes)) == .done)
        let saved = try #require(store.task(1))
        #expect(saved.linkChange == .keepBytes)
        #expect(saved.state == .waiting)
        #expect(saved.linkHistory == ["http://127.0.0.1/f1.bin"], "the same link is not history")
        // The same link with the same check again changes nothing.
        #expect(await fresh.perform(.setURL(TaskID(1), url: "http://127.0.0.1/new.bin", change: .sameFile)) == .done)
        #expect(store.task(1)?.linkChange == .keepBytes)
    }

    @Test func anotherLinkUnderTheSameNameInTheSameDirectoryIsTheTasksNewLink() async throws {
        let controller = controller()
        await controller.perform(.add([NewTask(url: "http://127.0.0.1/old.bin", directory: "/tmp/haul-tests", requestedName: "film.bin")]))
        await controller.perform(.pause(TaskID(1)))
        let result = await controller.perform(.add([
            NewTask(url: "http://127.0.0.1/new.bin", directory: "/tmp/haul-tests", requestedName: "film.bin"),
            NewTask(url: "http://127.0.0.1/new.bin", directory: "/tmp/haul-tests/other", requestedName: "film.bin"),
        ]))
        guard case let .added(new, reused) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(reused.map(\.id) == [TaskID(1)])
        #expect(new.map(\.directory) == ["/tmp/haul-tests/other"], "another directory is another file")
        let task = try #require(store.task(1))
        #expect(task.url == "http://127.0.0.1/new.bin")
        #expect(task.linkChange == .sameFile)
        #expect(task.linkHistory == ["http://127.0.0.1/old.bin"])
        #expect(task.state == .waiting, "named again, it carries on")
    }

    @Test func badLinksAndFinishedTasksAreRefusedAndChangeNothing() async throws {
        let controller = controller()
        await controller.perform(.add(newTasks(1)))
        guard case let .rejected(message) = await controller.perform(.setURL(TaskID(1), url: "ftp://x/y", change: .sameFile)) else {
            Issue.record("an ftp link was taken")
            return
        }
        #expect(message.contains("ftp"))
        #expect(await controller.perform(.setURL(TaskID(7), url: "http://127.0.0.1/x", change: .sameFile)) == .unknownTask(TaskID(7)))
        try store.save([DownloadTask(id: TaskID(1), url: "http://127.0.0.1/f1.bin", directory: "/tmp/haul-tests",
                                     state: .completed, position: 1)])
        let fresh = DownloadController(store: store, driver: ScriptedDriver(), snapshots: SnapshotBox(), configuration: .init())
        #expect(await fresh.perform(.setURL(TaskID(1), url: "http://127.0.0.1/x", change: .sameFile))
            == .notAllowed(TaskID(1), state: .completed))
        #expect(store.task(1)?.url == "http://127.0.0.1/f1.bin")
    }
}
