import Foundation
import GRDB
import HaulCore

/// The queue kept in SQLite: `TaskStore` on an `AppDatabase`.
///
/// Each method is one short transaction on the writer connection (or one read), so it is safe
/// from any thread and never sees half of another process's change. The controller actor is the
/// only caller in the transferring process; `haul add`/`pause`/… in another process use the same
/// type on their own `AppDatabase`.
public struct SQLiteTaskStore: TaskStore {
    public let database: AppDatabase

    public init(database: AppDatabase) {
        self.database = database
    }

    /// Ids per `IN (…)` list, far below SQLite's limit on bound parameters.
    static let idChunkSize = 500

    // MARK: - Reading

    /// Unfinished tasks in queue order, then completed ones newest first.
    public func loadAll() throws -> [DownloadTask] {
        var tasks: [DownloadTask] = []
        try forEachTask { tasks.append($0) }
        return tasks
    }

    /// Every task in `loadAll`'s order, handed to `body` one at a time from a cursor: a pass over the queue (`haul
    /// list`) holds one task at a time, not all of them. Runs in one read, which sees one state of the queue.
    public func forEachTask(_ body: (DownloadTask) throws -> Void) throws {
        try database.writer.read { db in
            let segments = try Self.segments(in: db)
            var reader = TaskRowReader()
            for sql in Self.queueOrderQueries {
                let statement = try db.makeStatement(sql: sql)
                let rows = try Row.fetchCursor(statement)
                while let row = try rows.next() {
                    var task = try reader.task(row, of: statement.sqliteStatement)
                    if let layout = segments[task.id] { task.segments = layout }
                    try body(task)
                }
            }
        }
    }

    /// The two reads of a pass over the queue, in `loadAll`'s order: each walks an index in that order, so rows come
    /// as they are read, none sorted first in memory (`2026-11-30-task-order-indexes`).
    static let queueOrderQueries = [
        "SELECT \(TaskRecord.selection) FROM task WHERE state != 'completed' ORDER BY position, id",
        "SELECT \(TaskRecord.selection) FROM task WHERE state = 'completed' ORDER BY finishedAt DESC, id DESC",
    ]

    /// The tasks with these ids, in the order asked, each once; ids not in the queue are skipped.
    public func load(_ ids: [TaskID]) throws -> [DownloadTask] {
        var seen = Set<TaskID>()
        let wanted = ids.filter { seen.insert($0).inserted }
        guard !wanted.isEmpty else { return [] }
        let records = try database.writer.read { db in
            var found: [Int64: TaskRecord] = [:]
            for chunk in Self.chunks(of: wanted) {
                for record in try TaskRecord.fetchAll(db, keys: chunk) {
                    if let id = record.id { found[id] = record }
                }
            }
            return wanted.compactMap { found[$0.rawValue] }
        }
        return try records.map { record throws(StoreError) in try record.task() }
    }

    // MARK: - Writing

    /// Adds the tasks after every existing one, in order, as `waiting`, in one transaction.
    ///
    /// One prepared statement serves the whole batch, and the creation date is formatted once:
    /// 10,000 tasks (an input file) take a fraction of a second. The returned tasks equal what
    /// `loadAll` reads back: `createdAt` is rounded to the millisecond the database keeps.
    public func enqueue(_ tasks: [NewTask]) throws -> [DownloadTask] {
        guard !tasks.isEmpty else { return [] }
        let now = Date().storedValue
        let createdAt = Date(storedValue: now) ?? Date()
        return try database.writer.write { db in
            var position = try Int64.fetchOne(db, TaskRecord.select(max(TaskRecord.Columns.position))) ?? 0
            // Columns not listed take their defaults: no bytes, no attempts, no validators yet.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO task (url, directory, requestedName, state, position, checksum, headers, createdAt, requestOptions,
                    fileName, bytesDone, mirrors, page, groupName)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            var added: [DownloadTask] = []
            added.reserveCapacity(tasks.count)
            // Tasks added together mostly share their options: encoded again only when they differ from the last.
            var options: (value: RequestOptions, text: String?)?
            for new in tasks {
                position += 1
                if options?.value != new.requestOptions { options = (new.requestOptions, TaskRecord.encodeOptions(new.requestOptions)) }
                try insert.execute(arguments: [
                    new.url, new.directory, new.requestedName, TaskState.waiting, position,
                    new.checksum?.description, TaskRecord.encodeStrings(new.headers), now,
                    options?.text, new.adoptedPart?.fileName, new.adoptedPart?.bytes ?? 0,
                    TaskRecord.encodeStrings(new.mirrors), new.page.flatMap(TaskRecord.encodeJSON), new.group,
                ])
                var task = DownloadTask(
                    id: TaskID(db.lastInsertedRowID), url: new.url, directory: new.directory,
                    requestedName: new.requestedName, state: .waiting, position: position,
                    checksum: new.checksum, headers: new.headers, createdAt: createdAt)
                task.requestOptions = new.requestOptions
                task.fileName = new.adoptedPart?.fileName
                task.bytesDone = new.adoptedPart?.bytes ?? 0
                task.mirrors = new.mirrors
                task.page = new.page
                task.group = new.group
                // Tasks added together hold one copy of their options, headers and mirrors when those are equal.
                if let previous = added.last { task.shareDetails(with: previous) }
                added.append(task)
            }
            return added
        }
    }

    /// Writes every column of each task in one transaction.
    ///
    /// A task no longer in the table (removed by another process meanwhile) is skipped: it stays
    /// removed rather than coming back.
    public func save(_ tasks: [DownloadTask]) throws {
        guard !tasks.isEmpty else { return }
        // One cached statement for the columns a task's life changes (the name asked for, checksum, headers and
        // creation time never change; the directory changes once when a content-type category chooses it):
        // this runs for every state change of every task.
        try database.writer.write { db in
            let update = try db.cachedStatement(sql: """
                UPDATE task SET url = ?, directory = ?, fileName = ?, state = ?, position = ?, bytesDone = ?, totalBytes = ?, etag = ?,
                    lastModified = ?, validatorServer = ?, validatorHost = ?, attempts = ?, lastError = ?, finishedAt = ?, linkChange = ?, linkHistory = ?,
                    cookies = ?, requestOptions = ?, mirrors = ?, droppedLinks = ?, stream = ?, kind = ?,
                    page = ?, groupName = ?
                WHERE id = ?
                """)
            for task in tasks {
                try update.execute(arguments: [
                    task.url, task.directory, task.fileName, task.state.rawValue, task.position, task.bytesDone, task.totalBytes,
                    task.validators.etag, task.validators.lastModified, task.validators.server, task.validators.host, task.attempts, task.lastError,
                    task.finishedAt?.storedValue, task.linkChange?.rawValue, TaskRecord.encodeStrings(task.linkHistory),
                    TaskRecord.encodeStrings(task.cookies), TaskRecord.encodeOptions(task.requestOptions),
                    TaskRecord.encodeStrings(task.mirrors), TaskRecord.encodeDropped(task.droppedLinks),
                    task.stream.flatMap(TaskRecord.encodeStream), task.kind?.rawValue,
                    task.page.flatMap(TaskRecord.encodeJSON), task.group, task.id.rawValue,
                ])
            }
        }
    }

    /// Records durable byte counts in one transaction, skipping rows that already hold the count.
    public func recordProgress(_ durableBytes: [TaskID: Int64]) throws {
        _ = try writeProgress(durableBytes)
    }

    /// `recordProgress`, returning how many rows changed.
    func writeProgress(_ durableBytes: [TaskID: Int64]) throws -> Int {
        guard !durableBytes.isEmpty else { return 0 }
        return try database.writer.write { db in
            let statement = try db.cachedStatement(sql: "UPDATE task SET bytesDone = ? WHERE id = ? AND bytesDone != ?")
            var changed = 0
            for (id, bytes) in durableBytes {
                try statement.execute(arguments: [bytes, id.rawValue, bytes])
                changed += db.changesCount
            }
            return changed
        }
    }

    /// Replaces each task's stored segment layout in one transaction.
    public func recordSegments(_ segments: [TaskID: [SegmentRecord]]) throws {
        guard !segments.isEmpty else { return }
        try database.writer.write { db in
            let clear = try db.cachedStatement(sql: "DELETE FROM segment WHERE taskId = ?")
            let insert = try db.cachedStatement(sql: "INSERT INTO segment (taskId, start, \"end\", committed) VALUES (?, ?, ?, ?)")
            for (id, records) in segments {
                try clear.execute(arguments: [id.rawValue])
                for record in records {
                    try insert.execute(arguments: [id.rawValue, record.start, record.end, record.committed])
                }
            }
        }
    }

    /// Every stored layout, by task.
    static func segments(in db: Database) throws -> [TaskID: [SegmentRecord]] {
        var layouts: [TaskID: [SegmentRecord]] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT taskId, start, \"end\", committed FROM segment ORDER BY taskId, start")
        while let row = try rows.next() {
            layouts[TaskID(row[0]), default: []].append(SegmentRecord(start: row[1], end: row[2], committed: row[3]))
        }
        return layouts
    }

    /// Sets `paused` on the tasks, one statement per chunk of ids, in one transaction.
    ///
    /// The ids go in order: each statement then changes neighbouring rows, a few pages, and the transaction
    /// writes each page once. Chunks of ids in the order of a hash table's keys (the controller's) would touch
    /// pages all over the table, more than the page cache holds, and write them to the WAL again and again.
    public func markPaused(_ ids: [TaskID]) throws {
        guard !ids.isEmpty else { return }
        try database.writer.write { db in
            for chunk in Self.chunks(of: ids.sorted()) {
                try TaskRecord.filter(keys: chunk).updateAll(db, TaskRecord.Columns.state.set(to: TaskState.paused))
            }
        }
    }

    /// Pauses every waiting or running task with one `UPDATE`; how many rows it changed.
    public func pauseEveryTask() throws -> Int {
        try database.writer.write { db in
            try TaskRecord
                .filter([TaskState.waiting, TaskState.running].contains(TaskRecord.Columns.state))
                .updateAll(db, TaskRecord.Columns.state.set(to: TaskState.paused))
        }
    }

    /// Puts the tasks back in line (waiting, no attempts, no error), one statement per chunk of ids in order, in one
    /// transaction (`markPaused` says why in order).
    public func markResumed(_ ids: [TaskID]) throws {
        guard !ids.isEmpty else { return }
        try database.writer.write { db in
            for chunk in Self.chunks(of: ids.sorted()) {
                try TaskRecord.filter(keys: chunk).updateAll(db, Self.resumed)
            }
        }
    }

    /// Puts every task in `states` back in line with one `UPDATE`; how many rows it changed.
    public func resumeEveryTask(in states: [TaskState]) throws -> Int {
        guard !states.isEmpty else { return 0 }
        return try database.writer.write { db in
            try TaskRecord.filter(states.contains(TaskRecord.Columns.state)).updateAll(db, Self.resumed)
        }
    }

    /// What a user's resume writes of a paused or failed task (`TaskLifecycle.resume`).
    private static var resumed: [ColumnAssignment] {
        [
            TaskRecord.Columns.state.set(to: TaskState.waiting), TaskRecord.Columns.attempts.set(to: 0),
            TaskRecord.Columns.lastError.set(to: nil),
        ]
    }

    /// A page of tasks in id order, read as `forEachTask` reads them (their segment layouts left out).
    public func page(after: TaskID?, in states: [TaskState]?, kind: TaskKind?, limit: Int) throws -> [DownloadTask] {
        var conditions = ["id > ?"]
        var arguments: StatementArguments = [after?.rawValue ?? Int64.min]
        if let states {
            conditions.append("state IN (\(states.map { _ in "?" }.joined(separator: ", ")))")
            for state in states { _ = arguments.append(contentsOf: [state.rawValue]) }
        }
        if let kind {
            conditions.append("kind = ?")
            _ = arguments.append(contentsOf: [kind.rawValue])
        }
        _ = arguments.append(contentsOf: [limit])
        let sql = "SELECT \(TaskRecord.selection) FROM task WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?"
        return try database.writer.read { db in
            var reader = TaskRowReader()
            var tasks: [DownloadTask] = []
            let statement = try db.makeStatement(sql: sql)
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            while let row = try rows.next() { tasks.append(try reader.task(row, of: statement.sqliteStatement)) }
            return tasks
        }
    }

    /// Deletes the tasks (and, through the foreign key, their segment layouts).
    public func delete(_ ids: [TaskID]) throws {
        guard !ids.isEmpty else { return }
        try database.writer.write { db in
            for chunk in Self.chunks(of: ids) {
                try TaskRecord.deleteAll(db, keys: chunk)
            }
        }
    }

    /// Moves an unfinished task `offset` places up (< 0) or down (> 0) among the unfinished
    /// tasks, stopping at either end; the tasks it passes shift by one place the other way.
    ///
    /// Only positions change, and only within the stretch between the old and new places, which
    /// reuses the positions already there. A completed or unknown task does not move.
    public func move(_ id: TaskID, by offset: Int) throws {
        guard offset != 0 else { return }
        try database.writer.write { db in
            let rows = try Row.fetchAll(
                db,
                TaskRecord
                    .select(TaskRecord.Columns.id, TaskRecord.Columns.position)
                    .filter(TaskRecord.Columns.state != TaskState.completed)
                    .order(TaskRecord.Columns.position, TaskRecord.Columns.id))
            let ids: [Int64] = rows.map { $0[0] }
            let positions: [Int64] = rows.map { $0[1] }
            guard let from = ids.firstIndex(of: id.rawValue) else { return }
            let to = Self.clampedTarget(from: from, offset: offset, count: ids.count)
            guard to != from else { return }

            var order = ids
            order.insert(order.remove(at: from), at: to)
            let statement = try db.cachedStatement(sql: "UPDATE task SET position = ? WHERE id = ?")
            for index in min(from, to)...max(from, to) where order[index] != ids[index] {
                try statement.execute(arguments: [positions[index], order[index]])
            }
        }
    }

    // MARK: - Helpers

    /// `from + offset`, kept inside `0..<count` without overflowing for any offset.
    static func clampedTarget(from: Int, offset: Int, count: Int) -> Int {
        let steps = Int(min(offset.magnitude, UInt(count)))
        return offset < 0 ? max(0, from - steps) : min(count - 1, from + steps)
    }

    static func chunks(of ids: [TaskID]) -> [[Int64]] {
        stride(from: 0, to: ids.count, by: idChunkSize).map { start in
            ids[start..<min(start + idChunkSize, ids.count)].map(\.rawValue)
        }
    }
}
