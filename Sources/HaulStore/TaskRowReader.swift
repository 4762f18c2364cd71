import GRDB
import HaulCore

/// Reads rows of `SELECT \(TaskRecord.selection)` as tasks, one at a time, for one pass over the queue.
///
/// Rows added together store the same directory and request options: while a row repeats the text of the row
/// before, the value read then is used again, so the options' JSON is decoded once per run of rows, not per row,
/// and the tasks share one copy of the directory and of their details (`DownloadTask.shareDetails(with:)`) instead
/// of holding one each (100,000 tasks from one input file). A value type owned by the loop that reads; not shared.
struct TaskRowReader {
    private var previous: DownloadTask?
    private var options: (text: String, value: RequestOptions)?

    mutating func task(_ row: Row) throws(StoreError) -> DownloadTask {
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
        return task
    }
}
