import Foundation

/// The controller's access to the store: failures kept as a message, and task changes committed in groups.
extension DownloadController {
    /// Runs a store call; a failure is kept as a message and the queue goes on in memory. Task changes not yet
    /// written go first: the store is never read or changed another way before them.
    @discardableResult
    func attempt<T>(_ body: () throws -> T) -> T? {
        if !unsaved.isEmpty { flushSaves() }
        return attemptAlone(body)
    }

    private func attemptAlone<T>(_ body: () throws -> T) -> T? {
        do {
            let value = try body()
            if lastStoreError != nil { pacer.rowsDidChange() }
            lastStoreError = nil
            return value
        } catch {
            let message = "could not update the queue database: \(error) — progress is kept in memory until it can be saved"
            if message != lastStoreError {
                announce(.warning(message))
                pacer.rowsDidChange()
            }
            lastStoreError = message
            return nil
        }
    }

    /// Takes a task's new state; it is written with the others that change within the same few milliseconds
    /// (`flushSaves`), before any front end is told of it.
    func save(_ task: DownloadTask) {
        saveFigures(of: task)
        pacer.rowsDidChange()
    }

    /// `save` for a change only the figures of a running task's row show (a stream's segments): the next tick
    /// patches its row instead of building every row again.
    func saveFigures(of task: DownloadTask) {
        tasks[task.id] = task
        runtime[task.id].unrecordedBytes = nil
        unsaved.take(task, segments: runtime[task.id].unrecordedSegments)
        runtime[task.id].unrecordedSegments = nil
    }

    /// Group commit: every task change taken since the last flush, in one transaction (and the layouts they
    /// carry in a second). Runs before a snapshot or a command's answer tells anyone (`publish`), before any
    /// other store call (`attempt`), and with each progress flush. What fails
    /// stays to be written at the next flush.
    func flushSaves() {
        if !unsaved.tasks.isEmpty, attemptAlone({ try store.save(Array(unsaved.tasks.values)) }) != nil { unsaved.tasksWritten() }
        if !unsaved.segments.isEmpty, attemptAlone({ try store.recordSegments(unsaved.segments) }) != nil {
            unsaved.segmentsWritten()
        }
    }
}
