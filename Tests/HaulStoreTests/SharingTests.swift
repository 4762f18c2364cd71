import Foundation
import HaulCore
@testable import HaulStore
import Testing

@Suite("Sharing the queue: settings, change token")
struct SharingTests {
    @Test("the concurrency limit is nil until saved, then the last value saved")
    func maxConcurrent() throws {
        let store = try makeStore()
        #expect(try store.loadMaxConcurrent() == nil)
        try store.saveMaxConcurrent(5)
        #expect(try store.loadMaxConcurrent() == 5)
        try store.saveMaxConcurrent(2)
        #expect(try store.loadMaxConcurrent() == 2)
    }

    @Test("a stored schedule with more windows than haul reads is refused, saying how to replace it")
    func oversizedSchedule() throws {
        let store = try makeStore()
        let windows = (0...Schedule.maxWindows).map { ScheduleWindow(start: 2 * $0, end: 2 * $0 + 1) }
        // Saved as an older haul, or a hand edit, could leave it; saving does not check.
        try store.saveSchedule(Schedule(runWindows: windows))
        #expect(throws: StoreError.refusedSchedule(.tooManyWindows(count: 1001, limit: 1000))) { try store.loadSchedule() }
        let message = StoreError.refusedSchedule(.tooManyWindows(count: 1001, limit: 1000)).description
        #expect(message.contains("1001 windows") && message.contains("haul schedule --clear"), "\(message)")
        try store.saveSchedule(Schedule(runWindows: Array(windows.dropLast())))
        #expect(try store.loadSchedule()?.runWindows.count == 1000)
    }

    @Test("the change token moves for another connection's commits, not for our own")
    func externalChangeToken() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.sqlite")
        let runner = SQLiteTaskStore(database: try AppDatabase(path: path))
        let other = SQLiteTaskStore(database: try AppDatabase(path: path))

        let start = try runner.externalChangeToken()
        let tasks = try runner.enqueue([newTask(1), newTask(2)])
        try runner.recordProgress([tasks[0].id: 512])
        try runner.move(tasks[1].id, by: -1)
        try runner.saveMaxConcurrent(4)
        #expect(try runner.externalChangeToken() == start)
        #expect(try runner.externalChangeToken() == start)

        let otherStart = try other.externalChangeToken()
        _ = try other.enqueue([newTask(3)])
        #expect(try other.externalChangeToken() == otherStart)
        let afterAdd = try runner.externalChangeToken()
        #expect(afterAdd != start)
        #expect(try runner.externalChangeToken() == afterAdd)

        try other.save([tasks[0]])
        let afterSave = try runner.externalChangeToken()
        #expect(afterSave != afterAdd)
        #expect(try runner.externalChangeToken() == afterSave)
        #expect(try runner.loadAll().count == 3)
    }

    @Test("a reader in one connection sees another connection's committed tasks")
    func crossConnectionReads() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.sqlite")
        let first = SQLiteTaskStore(database: try AppDatabase(path: path))
        let second = SQLiteTaskStore(database: try AppDatabase(path: path))
        let added = try second.enqueue([newTask(1)])
        #expect(try first.loadAll() == added)
        let more = try first.enqueue([newTask(2)])
        #expect(more.first?.position == 2)
        #expect(try second.loadAll() == added + more)
    }
}
