import GRDB
import HaulCore

/// Reads rows of `SELECT \(TaskRecord.selection)` as tasks, one at a time, for one pass over the queue.
///
/// Rows added together store the same directory and request options: while a row repeats the text of the row
/// before, the value read then is used again, so the options' JSON is decoded once per run of rows, not per row,
/// and the tasks share the same strings instead of holding a copy each (100,000 tasks from one input file).
/// A value type owned by the loop that reads; not shared.
struct TaskRowReader {
    private var directory: String?
    private var options: (text: String, value: RequestOptions)?

    mutating func task(_ row: Row) throws(StoreError) -> DownloadTask {
        var record = TaskRecord(positional: row)
        if let directory, directory == record.directory { record.directory = directory } else { directory = record.directory }
        guard let text = record.requestOptions else { return try record.task() }
        if let options, options.text == text {
            record.requestOptions = nil
            var task = try record.task()
            task.requestOptions = options.value
            return task
        }
        let task = try record.task()
        options = (text, task.requestOptions)
        return task
    }
}
