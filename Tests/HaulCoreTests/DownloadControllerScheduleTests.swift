import Foundation
import HaulTestSupport
import Synchronization
import Testing
@testable import HaulCore

/// The schedule carried out by the controller on a clock the test moves (DESIGN §10): nothing starts outside the
/// run windows, running tasks go back in line when one closes, a task resumed by hand runs anyway, cap windows
/// lower the overall cap.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerScheduleTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let clock = TestWallClock()

    static let berlin: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        return calendar
    }()

    static func at(_ hour: Int, _ minute: Int = 0) -> Date {
        berlin.date(from: DateComponents(year: 2026, month: 11, day: 25, hour: hour, minute: minute))!
    }

    func controller(overallLimit: RateLimit? = nil) -> (DownloadController, SnapshotBox) {
        var configuration = DownloadController.Configuration(maxConcurrent: 2, overallLimit: overallLimit)
        let clock = clock
        configuration.wallClock = { clock.now }
        configuration.calendar = Self.berlin
        let box = SnapshotBox()
        return (DownloadController(store: store, driver: driver, snapshots: box, configuration: configuration), box)
    }

    @Test func outsideTheRunWindowsNothingStartsUntilOneOpens() async throws {
        clock.now = Self.at(0, 30)
        try store.saveSchedule(Schedule(runWindows: [ScheduleWindow(start: 3600, end: 7200)]))
        let (controller, box) = controller()
        await controller.perform(.add(newTasks(2)))
        let run = Task { await controller.run() }
        try await eventually("the note", timeout: .seconds(10)) { box.read().schedule == "scheduled: resumes at 01:00" }
        #expect(driver.started.isEmpty)
        clock.now = Self.at(12)
        try await eventually("tomorrow's window named", timeout: .seconds(10)) { box.read().schedule == "scheduled: resumes at Thu 01:00" }
        clock.now = Self.at(1)
        try await eventually("both started in the window", timeout: .seconds(10)) { driver.started.count == 2 }
        #expect(box.read().schedule == nil)
        // The window closes: running tasks go back in line with their bytes, and wait.
        clock.now = Self.at(2)
        try await eventually("both stopped", timeout: .seconds(10)) {
            driver.commands.filter { if case .pause = $0 { return true } else { return false } }.count == 2
        }
        driver.emit(.finished(TaskID(1), .paused(durableBytes: 10)))
        driver.emit(.finished(TaskID(2), .paused(durableBytes: 20)))
        try await eventually("both waiting", timeout: .seconds(10)) {
            box.read().rows.allSatisfy { $0.task.state == .waiting }
        }
        #expect(driver.started.count == 2)
        // Resumed by hand after a pause: it runs outside the window.
        #expect(await controller.perform(.pause(TaskID(2))) == .done)
        #expect(await controller.perform(.resume(TaskID(2))) == .done)
        try await eventually("started by hand", timeout: .seconds(10)) { driver.started.count == 3 }
        #expect(driver.started.last == TaskID(2))
        await controller.stop()
        _ = await run.value
    }

    @Test func aSuspendedScheduleLetsTheQueueRunUntilItsNextChange() async throws {
        clock.now = Self.at(12)
        try store.saveSchedule(Schedule(runWindows: [ScheduleWindow(start: 3600, end: 7200)]))
        let (controller, box) = controller()
        await controller.perform(.add(newTasks(1)))
        let run = Task { await controller.run() }
        try await eventually("held", timeout: .seconds(10)) { box.read().schedule == "scheduled: resumes at Thu 01:00" }
        #expect(await controller.perform(.suspendSchedule(true)) == .done)
        try await eventually("started while suspended", timeout: .seconds(10)) { driver.started.count == 1 }
        #expect(box.read().schedule == "schedule suspended until Thu 01:00" && box.read().scheduleSuspended)
        // Taken up again: the running task goes back in line.
        #expect(await controller.perform(.suspendSchedule(false)) == .done)
        try await eventually("stopped again", timeout: .seconds(10)) { driver.commands.contains(.pause(TaskID(1))) }
        #expect(!box.read().scheduleSuspended)
        await controller.stop()
        _ = await run.value
    }

    @Test func capWindowsLowerTheOverallCapAndGiveItBack() async throws {
        clock.now = Self.at(9)
        let (controller, box) = controller(overallLimit: RateLimit(bytesPerSecond: 4 << 20))
        let run = Task { await controller.run() }
        #expect(await controller.perform(.setSchedule(Schedule(capWindows: [ScheduleWindow(start: 8 * 3600, end: 18 * 3600, cap: 1 << 20)]))) == .done)
        try await eventually("the scheduled cap", timeout: .seconds(10)) { driver.commands.last == .setOverallLimit(1 << 20) }
        try await eventually("the note", timeout: .seconds(10)) { box.read().schedule == "schedule: cap 1.0 MiB/s until 18:00" }
        #expect(try store.loadSchedule()?.capWindows.count == 1, "kept in the store")
        clock.now = Self.at(18)
        try await eventually("the own cap back", timeout: .seconds(10)) { driver.commands.last == .setOverallLimit(4 << 20) }
        // A lower cap of the user's own wins over the schedule's.
        clock.now = Self.at(10)
        #expect(await controller.perform(.setOverallLimit(RateLimit(bytesPerSecond: 512 << 10))) == .done)
        try await eventually("the lower of the two", timeout: .seconds(10)) { driver.commands.last == .setOverallLimit(512 << 10) }
        await controller.stop()
        _ = await run.value
    }
}

/// A wall clock a test sets.
final class TestWallClock: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 0))
    var now: Date {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
