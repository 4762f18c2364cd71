import Foundation
import GRDB
import HaulCore

/// What lets two processes share one queue: the change token, control requests, and settings.
extension SQLiteTaskStore {
    /// A number that changes when another connection or process commits, and not for our own writes.
    ///
    /// `PRAGMA data_version` is per connection and ignores that connection's own commits. It is
    /// always read on the writer connection, which makes every write of this `AppDatabase`;
    /// reading it on one of the pool's reader connections would count our own writes as
    /// external, and differ from one reader to the next.
    public func externalChangeToken() throws -> Int64 {
        try database.writer.writeWithoutTransaction { db in
            try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
    }

    /// Queues an edit for the transferring process; throws `StoreError.unknownTask` when the
    /// request names a task that is not in the queue.
    public func postControlRequest(_ request: ControlRequest) throws {
        do {
            try database.writer.write { db in
                var record = ControlRequestRecord(request, createdAt: Date())
                try record.insert(db)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            guard let taskID = request.taskID else { throw error }
            throw StoreError.unknownTask(taskID)
        }
    }

    /// Removes and returns every pending control request, oldest first; each is returned once.
    public func takeControlRequests() throws -> [ControlRequest] {
        try database.writer.write { db in
            let records = try ControlRequestRecord.order(ControlRequestRecord.Columns.id).fetchAll(db)
            guard let last = records.last?.id else { return [] }
            try ControlRequestRecord.filter(ControlRequestRecord.Columns.id <= last).deleteAll(db)
            return records.map(\.request)
        }
    }

    /// The concurrency limit last saved, or nil when none was (or the stored text is not a number).
    public func loadMaxConcurrent() throws -> Int? {
        try database.writer.read { db in
            try SettingRecord.value(of: .maxConcurrent, in: db).flatMap { Int($0) }
        }
    }

    public func saveMaxConcurrent(_ value: Int) throws {
        try database.writer.write { db in
            try SettingRecord.set(.maxConcurrent, to: String(value), in: db)
        }
    }
}
