import Foundation
import GRDB
import HaulCore

/// One row of the `controlRequest` table: an edit posted by another process, waiting for the
/// transferring one. Rows are consumed oldest first (by id) and deleted as they are taken.
struct ControlRequestRecord: Equatable {
    var id: Int64?
    var action: ControlRequest.Action
    /// The task, or nil for every task; the row goes away with its task (ON DELETE CASCADE).
    var taskId: Int64?
    var createdAt: Date

    enum Columns {
        static let id = Column("id")
        static let action = Column("action")
        static let taskId = Column("taskId")
        static let createdAt = Column("createdAt")
    }

    init(id: Int64? = nil, action: ControlRequest.Action, taskId: Int64?, createdAt: Date) {
        self.id = id
        self.action = action
        self.taskId = taskId
        self.createdAt = createdAt
    }

    init(_ request: ControlRequest, createdAt: Date) {
        self.init(action: request.action, taskId: request.taskID?.rawValue, createdAt: createdAt)
    }

    var request: ControlRequest {
        ControlRequest(action: action, taskID: taskId.map(TaskID.init))
    }
}

extension ControlRequestRecord: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "controlRequest"

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        action = try row.decode(forColumn: Columns.action)
        taskId = try row.decode(forColumn: Columns.taskId)
        createdAt = Date(storedValue: row[Columns.createdAt]) ?? Date(timeIntervalSince1970: 0)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.action] = action
        container[Columns.taskId] = taskId
        container[Columns.createdAt] = createdAt.storedValue
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
