import Foundation
import GRDB

/// The queue database: one SQLite file in WAL mode, migrated to the current schema when opened.
///
/// Owns the GRDB connections. It is safe to use from any thread: GRDB runs every write on one
/// writer connection, one at a time, and reads on a small pool of reader connections.
/// `SQLiteTaskStore` wraps it with methods named for what the controller means; no SQL lives
/// outside this module.
///
/// Settings, and why:
/// - WAL (`DatabasePool`): readers never block the writer, and another process (`haul add` from a
///   second shell) can write while a transferring process reads.
/// - `synchronous = NORMAL`: in WAL mode a transaction is in the WAL file once its commit returns,
///   so it survives a killed process (kill -9, a crash). Only a power loss or kernel panic can lose
///   the last commits, and losing them is safe: the engine `fdatasync`s file data before a byte
///   count is recorded, so an older count is always at most the durable bytes (DESIGN §5), and a
///   lost state change replays as a `running` task that resumes. FULL would add an fsync per
///   commit, up to four times a second per running task, for no gain on that invariant.
/// - A 5 s busy timeout: a second process waits for the write lock instead of failing with
///   SQLITE_BUSY. GRDB 7 begins writes with `BEGIN IMMEDIATE`, so the wait happens up front.
/// - Foreign keys on: a control request disappears with its task.
public final class AppDatabase: Sendable {
    /// A `DatabasePool` for a file, a `DatabaseQueue` in memory.
    let writer: any DatabaseWriter
    /// The database file, or nil in memory.
    public let path: String?

    /// Opens the database file at `path`, creating it if needed, and migrates it.
    public convenience init(path: String) throws(StoreError) {
        try self.init(writer: Self.openPool(path: path), path: path)
    }

    /// A private in-memory database with the real schema and settings, for tests.
    public static func inMemory() throws(StoreError) -> AppDatabase {
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(configuration: makeConfiguration())
        } catch {
            throw .cannotOpen(path: ":memory:", reason: String(describing: error))
        }
        return try AppDatabase(writer: queue, path: nil)
    }

    /// Opens the pool. Switching a fresh file to WAL takes an exclusive lock that the busy timeout does
    /// not cover, so two processes creating the file at once can see SQLITE_BUSY: try again for up to a second.
    private static func openPool(path: String) throws(StoreError) -> DatabasePool {
        var attempt = 0
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: makeConfiguration())
                // The queue holds URL credentials and `-H` headers: owner only, on every start. SQLite gives the
                // `-wal` and `-shm` files the database's mode.
                for file in [path, path + "-wal", path + "-shm"] { _ = chmod(file, 0o600) }
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempt < 50 {
                attempt += 1
                usleep(20_000)
            } catch {
                throw .cannotOpen(path: path, reason: String(describing: error))
            }
        }
    }

    private init(writer: any DatabaseWriter, path: String?) throws(StoreError) {
        self.writer = writer
        self.path = path
        try Self.migrate(writer, path: path ?? ":memory:")
    }

    static func makeConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "haul"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        return configuration
    }

    /// Brings the schema up to date, refusing a file from a newer haul.
    ///
    /// GRDB reads the list of applied migrations outside the transaction that applies one, so
    /// two processes opening a fresh file at the same moment (`haul add` twice from a script) can
    /// both start the same migration; the second then fails with "table … already exists" once
    /// the first has committed. Every such failure means another process made progress, so
    /// trying again converges within one attempt per migration.
    private static func migrate(_ writer: any DatabaseWriter, path: String) throws(StoreError) {
        let migrator = Migrations.migrator
        var failures = 0
        while true {
            do {
                if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                    throw StoreError.newerSchema(path: path)
                }
                try migrator.migrate(writer)
                return
            } catch let error as StoreError {
                throw error
            } catch {
                failures += 1
                if failures > migrator.migrations.count {
                    throw .cannotOpen(path: path, reason: String(describing: error))
                }
            }
        }
    }
}
