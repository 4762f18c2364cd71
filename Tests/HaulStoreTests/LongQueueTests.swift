import Foundation
import GRDB
import HaulCore
@testable import HaulStore
import Testing

/// A long queue in the store (issue 29): paused with one statement, and read back holding one copy of what its
/// tasks share, counted over 2,000 tasks.
@Suite("Queue: a long queue")
struct LongQueueTests {
    static let count = 2_000

    /// Tasks as one input file adds them: one directory, the same request options.
    func queue(_ store: SQLiteTaskStore) throws -> [DownloadTask] {
        try store.enqueue((1...Self.count).map { n in
            var new = newTask(n)
            new.requestOptions = RequestOptions(proxies: ProxySettings())
            return new
        })
    }

    /// How many copies of their details the tasks hold between them.
    func detailCopies(_ tasks: [DownloadTask]) -> Int {
        var copies: [DownloadTask] = []
        for task in tasks where !copies.contains(where: { $0.sharesDetails(with: task) }) { copies.append(task) }
        return copies.count
    }

    @Test("pausing every task changes only waiting and running rows, and only their state")
    func pauseEveryTask() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        tasks[0].state = .running
        tasks[0].bytesDone = 7
        tasks[1].state = .completed
        tasks[1].finishedAt = Date(timeIntervalSince1970: 1_795_000_000)
        tasks[2].state = .failed
        try store.save(Array(tasks[0...2]))
        #expect(try store.pauseEveryTask() == Self.count - 2)
        let loaded = Dictionary(uniqueKeysWithValues: try store.loadAll().map { ($0.id, $0) })
        #expect(loaded[tasks[0].id]?.state == .paused && loaded[tasks[0].id]?.bytesDone == 7)
        #expect(loaded[tasks[1].id]?.state == .completed && loaded[tasks[2].id]?.state == .failed)
        #expect(loaded.values.filter { $0.state == .paused }.count == Self.count - 2)
        #expect(try store.pauseEveryTask() == 0)
    }

    @Test("marking tasks paused writes their state alone")
    func markPaused() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        try store.markPaused(tasks.map(\.id))
        for index in tasks.indices { tasks[index].state = .paused }
        #expect(try store.loadAll() == tasks)
    }

    @Test("resuming every task in some states changes only those rows, and only their state, attempts and error")
    func resumeEveryTask() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        try store.markPaused(tasks.map(\.id))
        tasks[0].state = .failed
        tasks[0].attempts = 5
        tasks[0].lastError = "HTTP 503"
        tasks[0].bytesDone = 9
        tasks[1].state = .completed
        tasks[1].finishedAt = Date(timeIntervalSince1970: 1_795_000_000)
        tasks[2].state = .waiting
        try store.save(Array(tasks[0...2]))
        #expect(try store.resumeEveryTask(in: [.failed]) == 1)
        let failed = try #require(try store.load([tasks[0].id]).first)
        #expect(failed.state == .waiting && failed.attempts == 0 && failed.lastError == nil && failed.bytesDone == 9)
        #expect(try store.resumeEveryTask(in: [.paused, .failed]) == Self.count - 3)
        #expect(try store.loadAll().filter { $0.state == .waiting }.count == Self.count - 1)
        #expect(try store.resumeEveryTask(in: [.paused, .failed]) == 0)
    }

    @Test("marking tasks resumed writes their state, attempts and error alone")
    func markResumed() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        for index in tasks.indices {
            tasks[index].state = .failed
            tasks[index].attempts = 3
            tasks[index].lastError = "gone"
        }
        try store.save(tasks)
        try store.markResumed(tasks.map(\.id).reversed())
        for index in tasks.indices {
            tasks[index].state = .waiting
            tasks[index].attempts = 0
            tasks[index].lastError = nil
        }
        #expect(try store.loadAll() == tasks)
    }

    @Test("a page of tasks: in id order after an id, of some states and kind, at most the limit")
    func pages() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        tasks[10].state = .completed
        tasks[10].kind = .live
        tasks[10].finishedAt = Date(timeIntervalSince1970: 1_795_000_000)
        tasks[20].state = .completed
        tasks[20].finishedAt = Date(timeIntervalSince1970: 1_795_000_000)
        try store.save([tasks[10], tasks[20]])
        var read: [DownloadTask] = []
        var after: TaskID?
        while case let page = try store.page(after: after, in: nil, kind: nil, limit: 300), let last = page.last {
            #expect(page.count <= 300)
            read += page
            after = last.id
        }
        #expect(read == tasks)
        #expect(try store.page(after: nil, in: [.completed], kind: nil, limit: 10).map(\.id) == [tasks[10].id, tasks[20].id])
        #expect(try store.page(after: nil, in: [.completed], kind: .live, limit: 10) == [tasks[10]])
        #expect(try store.page(after: tasks[10].id, in: [.completed], kind: .live, limit: 10).isEmpty)
    }

    @Test("tasks added together, and read back, hold one copy of their details")
    func sharedDetails() throws {
        let store = try makeStore()
        let added = try queue(store)
        #expect(detailCopies(added) == 1)
        var loaded: [DownloadTask] = []
        try store.forEachTask { loaded.append($0) }
        #expect(loaded == added)
        #expect(detailCopies(loaded) == 1)
        // One task changed keeps its own copy; the others still share theirs.
        loaded[5].mirrors = ["https://mirror.example.org/file-6.bin"]
        #expect(detailCopies(loaded) == 2)
        #expect(!loaded[5].sharesDetails(with: loaded[4]) && loaded[4].sharesDetails(with: loaded[6]))
    }

    @Test("a pass over the queue decodes a run of tasks' shared details once, and reads every task as it was written")
    func detailsDecodedOncePerRun() throws {
        let store = try makeStore()
        var added = try queue(store)
        // A task in the middle with mirrors of its own: the tasks after it are a run of their own again.
        added[1_000].mirrors = ["https://mirror.example.org/file-1001.bin"]
        added[1_500].group = "other"
        try store.save([added[1_000], added[1_500]])
        var reader = TaskRowReader()
        var loaded: [DownloadTask] = []
        try store.database.writer.read { db in
            let statement = try db.makeStatement(sql: SQLiteTaskStore.queueOrderQueries[0])
            let rows = try Row.fetchCursor(statement)
            while let row = try rows.next() { loaded.append(try reader.task(row, of: statement.sqliteStatement)) }
        }
        #expect(loaded == added)
        #expect(reader.detailsDecoded == 5, "the first row, the mirrored one, the one after, the other group's, the one after")
        #expect(loaded[1_999].sharesDetails(with: loaded[1_501]) && loaded[999].sharesDetails(with: loaded[0]))
    }

    @Test("a pass over the queue reads each list in its order from an index, sorting no row in memory")
    func readsInIndexOrder() throws {
        let store = try makeStore()
        var tasks = try queue(store)
        // Out of id order both ways: a moved task and tasks finished in another order than added.
        tasks[0].position = 9_999
        for index in 1...3 {
            tasks[index].state = .completed
            tasks[index].finishedAt = Date(timeIntervalSince1970: 1_795_000_000 - Double(index) * 60)
        }
        try store.save(Array(tasks[0...3]))
        try store.database.writer.read { db in
            for sql in SQLiteTaskStore.queueOrderQueries {
                let plan = try String.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", adapter: SuffixRowAdapter(fromIndex: 3))
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
                #expect(plan.contains { $0.contains("USING INDEX") }, "\(plan)")
            }
        }
        var order: [TaskID] = []
        try store.forEachTask { order.append($0.id) }
        let unfinished = tasks.filter { $0.state != .completed }.sorted { ($0.position, $0.id.rawValue) < ($1.position, $1.id.rawValue) }
        let completed = tasks[1...3].sorted { ($0.finishedAt!, $0.id.rawValue) > ($1.finishedAt!, $1.id.rawValue) }
        #expect(order == (unfinished + completed).map(\.id))
    }
}
