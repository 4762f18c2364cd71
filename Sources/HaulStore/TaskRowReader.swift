import Foundation
import GRDB
import GRDBSQLite
import HaulCore

/// Reads rows of `SELECT \(TaskRecord.selection)` as tasks, one at a time, for one pass over the queue.
///
/// Rows added together store the same directory and details (request options, headers, group, …): while a row repeats
/// the details' stored text of the row before, byte for byte, the task takes the details of the task read then, none
/// of their columns decoded nor compared again; else it decodes them (the options' JSON once per run of rows) and shares
/// what is equal (`DownloadTask.shareDetails(with:)`). 100,000 tasks from one input file then hold one copy of the
/// directory and of their details, and a load decodes each task's own fields only. A value type owned by the loop that
/// reads; not shared.
struct TaskRowReader {
    private var previous: DownloadTask?
    private var options: (text: String, value: RequestOptions)?
    /// The previous row's detail columns as stored (nil for NULL), in `TaskRecord.detailColumns` order.
    private var previousDetails: [[UInt8]?] = []
    /// Rows whose details were decoded (not taken from the row before): what a load costs, counted.
    private(set) var detailsDecoded = 0

    /// - Parameter statement: the statement `row` comes from (`RowCursor.statement`), read with SQLite's own calls.
    mutating func task(_ row: Row, of statement: SQLiteStatement) throws(StoreError) -> DownloadTask {
        if let previous, repeatsDetails(statement) {
            var record = try TaskRecord(fieldsOf: statement)
            if previous.directory == record.directory { record.directory = previous.directory }
            var task = try record.task()
            task.adoptDetails(of: previous)
            self.previous = task
            return task
        }
        detailsDecoded += 1
        var record = TaskRecord(positional: row)
        if let previous, previous.directory == record.directory { record.directory = previous.directory }
        var task: DownloadTask
        if let text = record.requestOptions, let options, options.text == text {
            record.requestOptions = nil
            task = try record.task()
            task.requestOptions = options.value
        } else {
            task = try record.task()
            if let text = record.requestOptions { options = (text, task.requestOptions) }
        }
        if let previous { task.shareDetails(with: previous) }
        previous = task
        previousDetails = TaskRecord.detailColumns.map { TaskRecord.bytes(statement, Int32($0)) }
        return task
    }

    /// Whether the statement's row holds in its detail columns the bytes the previous row held.
    private func repeatsDetails(_ statement: SQLiteStatement) -> Bool {
        guard previousDetails.count == TaskRecord.detailColumns.count else { return false }
        for (number, column) in TaskRecord.detailColumns.enumerated()
        where !TaskRecord.column(statement, Int32(column), holds: previousDetails[number]) {
            return false
        }
        return true
    }
}
