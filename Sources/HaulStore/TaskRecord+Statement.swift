import Foundation
import GRDB
import GRDBSQLite
import HaulCore

/// A row of `SELECT \(TaskRecord.selection)` read with SQLite's own calls on the statement GRDB steps: a queue of
/// 100,000 is read without a generic decode or a `Data` per column (most of a load's time, counted in a profile).
/// Used by `TaskRowReader` alone, on the thread that runs the read.
extension TaskRecord {
    /// The row the statement stands on, without its details (`detailColumns`, left at their defaults): for a reader
    /// that takes them from a task whose stored details are the same.
    init(fieldsOf statement: SQLiteStatement) throws(StoreError) {
        let id = sqlite3_column_int64(statement, 0)
        let stateText = Self.text(statement, 5) ?? ""
        guard let state = TaskState(rawValue: stateText) else {
            throw .unreadableValue(taskID: TaskID(id), column: "state", value: stateText)
        }
        self.init(
            id: id, url: Self.text(statement, 1) ?? "", directory: Self.text(statement, 2) ?? "",
            requestedName: Self.text(statement, 3), fileName: Self.text(statement, 4), state: state,
            position: sqlite3_column_int64(statement, 6), bytesDone: sqlite3_column_int64(statement, 7),
            totalBytes: Self.integer(statement, 8), etag: Self.text(statement, 9), lastModified: Self.text(statement, 10),
            validatorServer: Self.text(statement, 24), validatorHost: Self.text(statement, 25),
            attempts: Int(sqlite3_column_int64(statement, 11)), lastError: Self.text(statement, 12), checksum: nil,
            headers: "[]",
            createdAt: Date(storedValue: DatabaseValue(sqliteStatement: statement, index: 15)) ?? Date(timeIntervalSince1970: 0),
            finishedAt: Date(storedValue: DatabaseValue(sqliteStatement: statement, index: 16)), linkChange: nil,
            linkHistory: "[]", requestOptions: nil, kind: Self.text(statement, 26))
    }

    /// The text in column `index`; nil for NULL.
    static func text(_ statement: SQLiteStatement, _ index: Int32) -> String? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The integer in column `index`; nil for NULL.
    static func integer(_ statement: SQLiteStatement, _ index: Int32) -> Int64? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, index)
    }

    /// Whether column `index` holds `bytes` (nil: NULL), byte for byte.
    static func column(_ statement: SQLiteStatement, _ index: Int32, holds bytes: [UInt8]?) -> Bool {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return bytes == nil }
        guard let bytes else { return false }
        let stored = sqlite3_column_blob(statement, index)
        guard Int(sqlite3_column_bytes(statement, index)) == bytes.count else { return false }
        guard let stored, !bytes.isEmpty else { return true }
        return bytes.withUnsafeBytes { kept in kept.baseAddress.map { memcmp(stored, $0, bytes.count) == 0 } ?? false }
    }

    /// The bytes of column `index`; nil for NULL.
    static func bytes(_ statement: SQLiteStatement, _ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        guard let stored = sqlite3_column_blob(statement, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, index))
        return Array(UnsafeRawBufferPointer(start: stored, count: count))
    }
}
