import Foundation
import GRDB
import HaulCore
@testable import HaulStore
import Testing

@Suite("Queue: enqueue, load, save, delete")
struct QueueStoreTests {
    @Test("enqueue numbers tasks and puts them after every existing task, as waiting")
    func enqueueOrder() throws {
        let store = try makeStore()
        let first = try store.enqueue([newTask(1), newTask(2)])
        let second = try store.enqueue([newTask(3)])
        #expect(first.map(\.position) == [1, 2])
        #expect(second.map(\.position) == [3])
        #expect(Set((first + second).map(\.id)).count == 3)
        #expect((first + second).allSatisfy { $0.state == .waiting && $0.bytesDone == 0 && $0.attempts == 0 })
        #expect(try store.loadAll() == first + second)
        #expect(try store.enqueue([]) == [])
    }

    @Test("enqueue keeps what the user gave: requested name, checksum, headers")
    func enqueueFields() throws {
        let store = try makeStore()
        let checksum = Checksum(algorithm: .sha256, hex: String(repeating: "ab", count: 32))
        let new = NewTask(
            url: "https://example.org/a", directory: "/data", requestedName: "a.iso", checksum: checksum,
            headers: ["Authorization: Bearer x"])
        let added = try #require(try store.enqueue([new]).first)
        #expect(added.requestedName == "a.iso")
        #expect(added.checksum == checksum)
        #expect(added.headers == ["Authorization: Bearer x"])
        #expect(try store.load([added.id]) == [added])
    }

    @Test("loadAll lists unfinished tasks in queue order, then completed ones newest first")
    func loadOrder() throws {
        let store = try makeStore()
        var tasks = try store.enqueue((1...6).map { newTask($0) })
        let base = Date(timeIntervalSince1970: 1_795_000_000)
        tasks[0].state = .completed
        tasks[0].finishedAt = base
        tasks[2].state = .completed
        tasks[2].finishedAt = base.addingTimeInterval(60)
        tasks[1].state = .running
        tasks[3].state = .paused
        tasks[4].state = .failed
        tasks[5].position = 0  // moved to the front
        try store.save(tasks)
        let loaded = try store.loadAll()
        #expect(loaded.map(\.id) == [tasks[5], tasks[1], tasks[3], tasks[4], tasks[2], tasks[0]].map(\.id))
    }

    @Test("load returns the asked tasks in the order asked, once each, skipping unknown ids")
    func loadByID() throws {
        let store = try makeStore()
        let tasks = try store.enqueue((1...3).map { newTask($0) })
        let ids = [tasks[2].id, TaskID(999), tasks[0].id, tasks[2].id]
        #expect(try store.load(ids) == [tasks[2], tasks[0]])
        #expect(try store.load([]) == [])
    }

    @Test("mirrors are kept with the task, and the links a transfer dropped with their reasons")
    func mirrorsAndDroppedLinksRoundTrip() throws {
        let store = try makeStore()
        var new = NewTask(url: "https://a.example/f.iso", directory: "/d")
        new.mirrors = ["https://b.example/f.iso", "https://u:p@c.example/f.iso"]
        var task = try #require(try store.enqueue([new]).first)
        #expect(task.mirrors == new.mirrors)
        #expect(try store.loadAll() == [task])
        task.record(DroppedLink(url: "https://b.example/f.iso", reason: "it serves 10 bytes where the file has 12"))
        task.record(DroppedLink(url: "https://b.example/f.iso", reason: "HTTP 404 from b.example — check the URL"))
        try store.save([task])
        let read = try #require(try store.load([task.id]).first)
        #expect(read == task)
        #expect(read.droppedLinks.count == 1)
        #expect(read.dropReason(of: "https://b.example/f.iso") == "HTTP 404 from b.example — check the URL")
        #expect(read.dropReason(of: "https://a.example/f.iso") == nil)
    }

    @Test("save writes every changing field and reads back the same task")
    func saveRoundTrip() throws {
        let store = try makeStore()
        let enqueued = try #require(try store.enqueue([NewTask(
            url: "https://example.org/電影.mp4?x=1&y=2", directory: "/home/u/Downloads/with space",
            requestedName: "movie.mp4", checksum: Checksum(algorithm: .sha256, hex: String(repeating: "0f", count: 32)),
            headers: ["Referer: https://example.org/", "X-Quote: \"a\\b\"", "Accept-Language: 日本語"])]).first)
        var task = enqueued
        task.fileName = "電影.第01集.mp4"
        task.state = .completed
        task.position = 42
        task.bytesDone = 5_000_000_000
        task.totalBytes = 5_000_000_000
        task.validators = RemoteValidators(
            etag: "\"abc-123\"", lastModified: "Wed, 21 Oct 2026 07:28:00 GMT", server: "Apache/2.4.62 (Debian)",
            host: "example.org")
        task.attempts = 3
        task.lastError = "HTTP 503 Service Unavailable from example.org — will retry"
        task.finishedAt = Date(timeIntervalSince1970: 1_795_003_600.5)
        task.url = "https://mirror.example.org/電影.mp4?token=new"
        task.linkChange = .keepBytes
        task.linkHistory = ["https://example.org/電影.mp4?x=1&y=2", "https://cdn.example/a?sig=\"q\""]
        try store.save([task])
        #expect(try store.load([task.id]) == [task])

        task.fileName = nil
        task.totalBytes = nil
        task.validators = RemoteValidators()
        task.lastError = nil
        task.finishedAt = nil
        task.state = .waiting
        task.linkChange = nil
        task.linkHistory = []
        try store.save([task])
        #expect(try store.load([task.id]) == [task])

        // Fields fixed at enqueue stay as they were, whatever the saved value says.
        var changedFixed = task
        changedFixed.headers = []
        try store.save([changedFixed])
        #expect(try store.load([task.id]) == [task])
    }

    @Test("save writes a batch in one transaction: a bad row leaves every row as it was")
    func saveIsAtomic() throws {
        let store = try makeStore()
        var tasks = try store.enqueue([newTask(1), newTask(2)])
        tasks[0].state = .running
        tasks[1].bytesDone = -5
        #expect(throws: DatabaseError.self) { try store.save(tasks) }
        #expect(try store.loadAll().map(\.state) == [.waiting, .waiting])
    }

    @Test("saving a task removed meanwhile does not bring it back")
    func saveSkipsRemoved() throws {
        let store = try makeStore()
        var tasks = try store.enqueue([newTask(1), newTask(2)])
        try store.delete([tasks[0].id])
        tasks[0].state = .paused
        tasks[1].state = .paused
        try store.save(tasks)
        #expect(try store.loadAll() == [tasks[1]])
    }

    @Test("delete removes the tasks and ignores unknown ids")
    func delete() throws {
        let store = try makeStore()
        let tasks = try store.enqueue((1...3).map { newTask($0) })
        try store.delete([tasks[1].id, TaskID(999)])
        #expect(try store.loadAll().map(\.id) == [tasks[0].id, tasks[2].id])
        try store.delete([])
    }

    @Test("a hand-edited unreadable value is reported with the task and column")
    func unreadableHeaders() throws {
        let store = try makeStore()
        let task = try #require(try store.enqueue([newTask(1)]).first)
        try store.database.writer.write { db in
            try db.execute(sql: "UPDATE task SET headers = 'not json' WHERE id = ?", arguments: [task.id.rawValue])
        }
        #expect(throws: StoreError.unreadableValue(taskID: task.id, column: "headers", value: "not json")) {
            try store.loadAll()
        }
    }
}
