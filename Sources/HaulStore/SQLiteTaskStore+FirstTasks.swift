import GRDB
import HaulCore

extension SQLiteTaskStore {
    /// The first `limit` tasks in `loadAll`'s order and how many tasks there are, in one read: what a live list shows
    /// of a long queue before the controller has read it all (their segment layouts left out: a first screen, not the
    /// tasks the controller holds).
    public func firstTasks(_ limit: Int) throws -> (tasks: [DownloadTask], total: Int) {
        try database.writer.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM task") ?? 0
            var tasks: [DownloadTask] = []
            var reader = TaskRowReader()
            for sql in Self.queueOrderQueries where tasks.count < limit {
                let statement = try db.makeStatement(sql: sql + " LIMIT \(limit - tasks.count)")
                let rows = try Row.fetchCursor(statement)
                while let row = try rows.next() { tasks.append(try reader.task(row, of: statement.sqliteStatement)) }
            }
            return (tasks, total)
        }
    }
}
