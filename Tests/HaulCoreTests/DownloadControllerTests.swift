import Foundation
import Testing
@testable import HaulCore
import HaulTestSupport

/// The controller with a scripted engine: slots, lifecycle, retries, edits from other processes.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let box = SnapshotBox()

    func controller(max: Int = 2, headless: Bool = false, retries: Int = 5) -> DownloadController {
        DownloadController(
            store: store, driver: driver, snapshots: box,
            configuration: .init(maxConcurrent: max, retryPolicy: RetryPolicy(maxRetries: retries, baseDelay: 0.05),
                                 exitWhenIdle: headless))
    }


    @Test func startsAtMostNInQueueOrderAndFillsFreedSlots() async throws {
        let controller = controller(max: 2)
        await controller.perform(.add(newTasks(4)))
        let run = Task { await controller.run() }
        try await eventually("two started", timeout: .seconds(20)) { driver.started.count == 2 }
        #expect(driver.started == [TaskID(1), TaskID(2)])
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 10)))
        try await eventually("third started", timeout: .seconds(20)) { driver.started.count == 3 }
        #expect(driver.started.last == TaskID(3))
        #expect(box.read().count(of: .running) == 2)
        await controller.stop()
        let summary = await run.value
        #expect(summary.interrupted)
        #expect(summary.completed == 1)
        #expect(store.task(2)?.state == .waiting)
        #expect(store.task(1)?.state == .completed)
    }

    @Test func pausingARunningTaskKeepsItPausedAndStartsTheNext() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        await controller.perform(.pause(TaskID(1)))
        #expect(driver.commands.contains(.pause(TaskID(1))))
        #expect(box.read().rows.first?.task.state == .paused)
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 4096)))
        // The slot is free as soon as the task is paused; the next one does not wait for the engine.
        try await eventually("second started", timeout: .seconds(20)) { driver.started == [TaskID(1), TaskID(2)] }
        try await eventually("durable bytes recorded", timeout: .seconds(20)) { store.task(1)?.bytesDone == 4096 }
        #expect(store.task(1)?.state == .paused)
        // Resume: it waits for the slot, then starts from its durable byte.
        await controller.perform(.resume(TaskID(1)))
        driver.emit(.finished(TaskID(2), .completed(fileName: "f2.bin", bytes: 1)))
        try await eventually("first restarted", timeout: .seconds(20)) { driver.started.count == 3 }
        guard case let .start(request) = driver.commands.last(where: { if case .start = $0 { true } else { false } }) else {
            Issue.record("no start")
            return
        }
        #expect(request.id == TaskID(1))
        #expect(request.resumeFrom == 4096)
        await controller.stop()
        _ = await run.value
    }

    @Test func transientErrorsBackOffThenFailAfterTheRetries() async throws {
        let controller = controller(max: 1, headless: true, retries: 2)
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        let error = DownloadError.network(code: 7, message: "refused", host: "h")
        for attempt in 1...3 {
            try await eventually("attempt \(attempt)", timeout: .seconds(20)) { driver.started.count == attempt }
            driver.emit(.finished(TaskID(1), .failed(error, durableBytes: 0)))
        }
        let summary = await run.value
        #expect(summary.failed == 1)
        #expect(store.task(1)?.state == .failed)
        #expect(store.task(1)?.attempts == 3)
        #expect(store.task(1)?.lastError == error.description)
    }

    /// Progress that only wins back bytes lost (a file whose ETag changes on every request, on a connection that
    /// drops halfway: each attempt starts over and gets as far as the last) does not renew the retries: the task
    /// fails after them, instead of fetching the same half without end.
    @Test func progressThatOnlyWinsBackLostBytesDoesNotRenewTheRetries() async throws {
        let controller = controller(max: 1, headless: true, retries: 2)
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        let dropped = DownloadError.network(code: 18, message: "transfer closed", host: "h")
        for attempt in 1...8 {
            try await eventually("attempt \(attempt)", timeout: .seconds(20)) {
                driver.started.count == attempt || store.task(1)?.state == .failed
            }
            if store.task(1)?.state == .failed { break }
            // Odd attempts fetch the first half again; even ones find the file changed and empty the part file.
            driver.emit(.finished(TaskID(1), .failed(dropped, durableBytes: attempt % 2 == 1 ? 1000 : 0)))
        }
        try await eventually("failed", timeout: .seconds(20)) { store.task(1)?.state == .failed }
        #expect(driver.started.count <= 4, "\(driver.started.count) attempts")
        await controller.stop()
        _ = await run.value
    }

    @Test func progressPastTheBytesHeldRenewsTheRetries() async throws {
        let controller = controller(max: 1, headless: true, retries: 2)
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        let dropped = DownloadError.network(code: 18, message: "transfer closed", host: "h")
        // A connection that drops every time, each time further on: never out of retries.
        for attempt in 1...6 {
            try await eventually("attempt \(attempt)", timeout: .seconds(20)) { driver.started.count == attempt }
            driver.emit(.finished(TaskID(1), .failed(dropped, durableBytes: Int64(attempt) * 1000)))
        }
        try await eventually("a seventh attempt", timeout: .seconds(20)) { driver.started.count == 7 }
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 7000)))
        #expect(await run.value == .init(outcomes: [TaskID(1): .completed]))
    }

    @Test func permanentErrorsFailAtOnceAndHeadlessEndsWhenIdle() async throws {
        let controller = controller(max: 3, headless: true)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("both started", timeout: .seconds(20)) { driver.started.count == 2 }
        driver.emit(.finished(TaskID(1), .failed(.httpStatus(code: 404, reason: nil, host: "h", retryAfter: nil), durableBytes: 0)))
        driver.emit(.finished(TaskID(2), .completed(fileName: "f2.bin", bytes: 5)))
        let summary = await run.value
        #expect(summary == .init(outcomes: [TaskID(1): .failed, TaskID(2): .completed]))
        #expect(driver.started.count == 2)
    }

    @Test func aTaskPausedForDiskSpaceThenResumedToTheEndCountsOnlyAsCompleted() async throws {
        // A second task keeps the headless run going meanwhile, as a long download would.
        let controller = controller(max: 2, headless: true)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started.count == 2 }
        let full = DownloadError.lowDiskSpace(path: "/d", freeBytes: 1, neededBytes: 10, reserveBytes: 64)
        driver.emit(.finished(TaskID(1), .failed(full, durableBytes: 0)))
        try await eventually("paused for disk space", timeout: .seconds(20)) { store.task(1)?.state == .paused }
        await controller.perform(.resume(TaskID(1)))
        try await eventually("started again", timeout: .seconds(20)) { driver.started.count == 3 }
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 5)))
        driver.emit(.finished(TaskID(2), .completed(fileName: "f2.bin", bytes: 5)))
        let summary = await run.value
        #expect(summary == .init(outcomes: [TaskID(1): .completed, TaskID(2): .completed]))
        #expect(!summary.hasFailures)
    }

    @Test func checkpointsAreRecordedAndTheRestartPointIsTheDurableByte() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started.count == 1 }
        driver.emit(.responded(TaskID(1), ResponseSummary(
            fileName: "f1.bin", totalBytes: 1000, validators: RemoteValidators(etag: "\"e\""), offset: 0,
            restartReason: nil, httpStatus: 200)))
        driver.emit(.progress([TaskID(1): 900]))
        driver.emit(.checkpoint(TaskID(1), durableBytes: 600))
        try await eventually("recorded", timeout: .seconds(20)) { store.task(1)?.bytesDone == 600 }
        #expect(store.task(1)?.fileName == "f1.bin")
        #expect(store.task(1)?.validators.etag == "\"e\"")
        // The live position shows, the durable one is stored.
        try await eventually("live row", timeout: .seconds(20)) { box.read().rows.first?.bytesReceived == 900 }
        await controller.stop()
        _ = await run.value
    }

    @Test func picksUpTasksAddedToTheDatabaseByOtherProcesses() async throws {
        let controller = controller(max: 1)
        let run = Task { await controller.run() }
        try store.externalAdd(NewTask(url: "http://127.0.0.1/x.bin", directory: "/tmp"))
        try await eventually("external task started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        await controller.perform(.pause(TaskID(1)))
        try await eventually("paused", timeout: .seconds(20)) { driver.commands.contains(.pause(TaskID(1))) }
        #expect(store.task(1)?.state == .paused)
        await controller.stop()
        _ = await run.value
    }

    @Test func aBurstOfEndingTasksBuildsFewSnapshotsAndEachIsToldOnceTheSnapshotShowsIt() async throws {
        let count = 300
        let controller = controller(max: count)
        await controller.perform(.add(newTasks(count)))
        let events = controller.events()
        let run = Task { await controller.run() }
        try await eventually("all started", timeout: .seconds(20)) { driver.started.count == count }
        let before = box.read().sequence
        let started = ContinuousClock.now
        for id in 1...count { driver.emit(.finished(TaskID(Int64(id)), .completed(fileName: "f\(id).bin", bytes: 10))) }
        var told = 0
        for await event in events {
            guard case let .completed(task) = event else { continue }
            // Told only once the snapshot shows it: a client asking at once reads the new state.
            #expect(box.read().rows.first { $0.id == task.id }?.task.state == .completed)
            told += 1
            if told == count { break }
        }
        // A snapshot costs O(queue): a burst builds about one per 20 ms (and one per 200 ms tick), not one
        // per event, however long the burst takes on a loaded (or sanitized) machine.
        let built = box.read().sequence - before
        let spacings = (ContinuousClock.now - started) / SnapshotPacer.spacing
        #expect(Double(built) <= spacings * 1.5 + 10, "\(built) snapshots in \(spacings) spacings")
        #expect(built < UInt64(count), "\(built) snapshots for \(count) events")
        await controller.stop()
        _ = await run.value
    }

    @Test func aCommandAboutATaskAnotherProcessJustAddedFindsIt() async throws {
        let controller = controller(max: 1)
        let run = Task { await controller.run() }
        try await eventually("running", timeout: .seconds(20)) { box.read().sequence > 0 }
        // Added by a shell that found no socket yet; the pause comes before the next look at the database.
        try store.externalAdd(NewTask(url: "http://127.0.0.1/x.bin", directory: "/tmp"))
        #expect(await controller.perform(.pause(TaskID(1))) == .done)
        #expect(store.task(1)?.state == .paused)
        await controller.stop()
        _ = await run.value
    }

    @Test func removingARunningTaskStopsItAndForgetsIt() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("started", timeout: .seconds(20)) { driver.started.count == 1 }
        await controller.perform(.remove(TaskID(1), deleteFile: true))
        // The engine owns the part file: it stops the transfer and deletes the file it really wrote.
        #expect(driver.commands.contains(.deletePart(TaskID(1), directory: "/tmp/haul-tests", fileName: nil)))
        #expect(store.task(1) == nil)
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 10)))
        try await eventually("next started", timeout: .seconds(20)) { driver.started.count == 2 }
        #expect(!box.read().rows.contains { $0.id == TaskID(1) })
        await controller.stop()
        _ = await run.value
    }

    @Test func loweringTheLimitRequeuesTheLastRunningTasks() async throws {
        let controller = controller(max: 3)
        await controller.perform(.add(newTasks(3)))
        let run = Task { await controller.run() }
        try await eventually("three started", timeout: .seconds(20)) { driver.started.count == 3 }
        await controller.perform(.setMaxConcurrent(1))
        #expect(driver.commands.contains(.pause(TaskID(3))))
        #expect(driver.commands.contains(.pause(TaskID(2))))
        #expect(!driver.commands.contains(.pause(TaskID(1))))
        #expect(store.task(3)?.state == .waiting)
        #expect(try store.loadMaxConcurrent() == 1)
        await controller.stop()
        _ = await run.value
    }

    @Test func aTaskAddedElsewhereJustBeforeTheQueueRunsDryIsStillRun() async throws {
        let controller = controller(max: 1, headless: true)
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        // Another shell adds a task; the last one finishes before the next tick could notice.
        try store.externalAdd(NewTask(url: "http://127.0.0.1/late.bin", directory: "/tmp"))
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 1)))
        try await eventually("late task started", timeout: .seconds(20)) { driver.started == [TaskID(1), TaskID(2)] }
        #expect(!driver.commands.contains(.shutdown))
        driver.emit(.finished(TaskID(2), .completed(fileName: "late.bin", bytes: 1)))
        let summary = await run.value
        #expect(summary.completed == 2)
    }

    @Test func pauseAllStartsNothingOnTheWay() async throws {
        let controller = controller(max: 2)
        await controller.perform(.add(newTasks(5)))
        let run = Task { await controller.run() }
        try await eventually("two started", timeout: .seconds(20)) { driver.started.count == 2 }
        await controller.perform(.pauseAll)
        #expect(driver.started.count == 2)
        #expect(box.read().count(of: .paused) == 5)
        await controller.stop()
        _ = await run.value
    }

    @Test func aNewTaskIsToldWhichNamesOthersHold() async throws {
        let controller = controller(max: 1)
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("first started", timeout: .seconds(20)) { driver.started == [TaskID(1)] }
        driver.emit(.responded(TaskID(1), ResponseSummary(
            fileName: "same.bin", totalBytes: 10, validators: RemoteValidators(), offset: 0, restartReason: nil, httpStatus: 200)))
        try await eventually("name recorded", timeout: .seconds(20)) { store.task(1)?.fileName == "same.bin" }
        await controller.perform(.pause(TaskID(1)))
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 0)))
        try await eventually("second started", timeout: .seconds(20)) { driver.started.count == 2 }
        let second = driver.commands.compactMap { command -> TransferRequest? in
            if case let .start(request) = command, request.id == TaskID(2) { return request } else { return nil }
        }.first
        #expect(second?.namesHeldElsewhere == ["same.bin"])
        await controller.stop()
        _ = await run.value
    }
}
