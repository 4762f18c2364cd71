import Foundation
import GRDB
import HaulCore
@testable import HaulStore
import Testing

@Suite("Schema and migrations")
struct MigrationTests {
    @Test("the initializer creates every table with its columns and the queue index")
    func schema() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.read { (db: Database) throws in
            #expect(try db.tableExists("task"))
            #expect(try !db.tableExists("controlRequest"), "commands go over the control socket")
            #expect(try db.tableExists("setting"))
            let taskColumns = try db.columns(in: "task").map(\.name)
            #expect(taskColumns == [
                "id", "url", "directory", "requestedName", "fileName", "state", "position", "bytesDone",
                "totalBytes", "etag", "lastModified", "attempts", "lastError", "checksum", "headers",
                "createdAt", "finishedAt", "linkChange", "linkHistory", "requestOptions", "cookies", "mirrors", "droppedLinks", "stream",
                "validatorServer", "validatorHost", "kind", "page", "groupName",
            ])
            #expect(try db.columns(in: "setting").map(\.name) == ["key", "value"])
            let index = try db.indexes(on: "task").first { $0.name == "task_on_state_position" }
            #expect(index?.columns == ["state", "position"])
            #expect(try Migrations.migrator.hasCompletedMigrations(db))
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test("a file database uses WAL, synchronous NORMAL and a busy timeout")
    func fileSettings() throws {
        let scratch = try ScratchDirectory()
        let database = try AppDatabase(path: scratch.file("haul.sqlite"))
        try database.writer.writeWithoutTransaction { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA synchronous") == 1)
            #expect(try Int.fetchOne(db, sql: "PRAGMA busy_timeout") == 5000)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test("reopening a migrated file keeps its rows")
    func reopen() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.sqlite")
        let added = try SQLiteTaskStore(database: AppDatabase(path: path)).enqueue([newTask(1), newTask(2)])
        let reopened = SQLiteTaskStore(database: try AppDatabase(path: path))
        #expect(try reopened.loadAll() == added)
    }

    @Test("every TaskState passes its CHECK constraint")
    func enumsMatchChecks() throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { (db: Database) throws in
            for (n, state) in TaskState.allCases.enumerated() {
                try db.execute(
                    sql: "INSERT INTO task (url, directory, state, position, createdAt) VALUES ('u', '/d', ?, ?, '2026-01-01')",
                    arguments: [state.rawValue, n])
            }
        }
    }

    @Test("CHECK constraints reject bad rows", arguments: [
        "state = 'downloading'",
        "bytesDone = -1",
        "totalBytes = -1",
        "attempts = -1",
        "checksum = 'md5=abc'",
        "url = NULL",
        "state = NULL",
    ])
    func checks(assignment: String) throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO task (url, directory, state, position, createdAt) VALUES ('u', '/d', 'waiting', 1, '2026-01-01')")
        }
        #expect(throws: DatabaseError.self) {
            try database.writer.write { (db: Database) throws in
                try db.execute(sql: "UPDATE task SET \(assignment)")
            }
        }
    }

    @Test("a file migrated by a newer haul is refused with a message that says so")
    func newerSchema() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.sqlite")
        let database = try AppDatabase(path: path)
        try database.writer.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('2099-01-01-from-the-future')")
        }
        #expect(throws: StoreError.newerSchema(path: path)) {
            _ = try AppDatabase(path: path)
        }
        #expect(StoreError.newerSchema(path: path).description.contains("newer haul"))
    }

    @Test("several processes' worth of connections can open a fresh file at once")
    func concurrentFirstOpen() throws {
        for _ in 0..<5 {
            let scratch = try ScratchDirectory()
            let path = scratch.file("haul.sqlite")
            let failures = OpenFailures()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do { _ = try AppDatabase(path: path) } catch { failures.record(error) }
            }
            #expect(failures.all.isEmpty)
            let database = try AppDatabase(path: path)
            try database.writer.read { (db: Database) throws in
                #expect(try Migrations.migrator.appliedMigrations(db) == Migrations.migrator.migrations)
            }
        }
    }

    @Test("a database path that cannot be opened gives a message naming it")
    func cannotOpen() throws {
        let path = "/nonexistent-haul-dir/haul.sqlite"
        do {
            _ = try AppDatabase(path: path)
            Issue.record("opening \(path) succeeded")
        } catch {
            guard case .cannotOpen(let failedPath, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(failedPath == path)
            #expect(error.description.contains(path))
        }
    }
}

/// Errors collected from concurrent openers.
private final class OpenFailures: Sendable {
    private let errors = PthreadMutex<[String]>([])
    func record(_ error: any Error) { errors.withLock { $0.append(String(describing: error)) } }
    var all: [String] { errors.withLock { $0 } }
}
