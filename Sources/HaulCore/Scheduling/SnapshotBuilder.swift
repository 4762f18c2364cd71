import Foundation

/// Builds the front ends' `QueueSnapshot` from the controller's tasks and runtime records: pure, so it is
/// tested without the actor.
enum SnapshotBuilder {
    /// Unfinished tasks in queue order, then completed ones newest first; running rows carry live bytes,
    /// speed and ETA, waiting rows their retry time.
    static func build(
        tasks: TaskTable, runtime: RuntimeTable, maxConcurrent: Int, overallLimit: RateLimit?, defaultSplit: Int,
        sequence: UInt64, warning: String?,
        now: ContinuousClock.Instant, wallNow: Date
    ) -> QueueSnapshot {
        // Order small keys (each with its task, so none is looked up again), then build each row once: a queue can hold
        // 100,000 tasks.
        var unfinishedKeys: [(position: Int64, id: TaskID, task: DownloadTask)] = []
        var completedKeys: [(finished: Date, id: TaskID, task: DownloadTask)] = []
        unfinishedKeys.reserveCapacity(tasks.byID.count)
        for task in tasks.values {
            if task.state == .completed {
                completedKeys.append((task.finishedAt ?? .distantPast, task.id, task))
            } else {
                unfinishedKeys.append((task.position, task.id, task))
            }
        }
        unfinishedKeys.sort { ($0.position, $0.id) < ($1.position, $1.id) }
        completedKeys.sort { ($0.finished, $0.id) > ($1.finished, $1.id) }
        var rows: [QueueSnapshot.Row] = []
        rows.reserveCapacity(unfinishedKeys.count + completedKeys.count)
        var totalSpeed: Double?
        // Most tasks have no runtime record (nothing runs, backs off or has a cap of its own): none is looked for then.
        let noRuntime = runtime.byID.isEmpty
        for task in unfinishedKeys.lazy.map(\.task) + completedKeys.lazy.map(\.task) {
            let record = noRuntime ? TaskRuntime() : runtime[task.id]
            let row = row(task, record, defaultSplit: defaultSplit, now: now, wallNow: wallNow)
            if let speed = row.speed { totalSpeed = (totalSpeed ?? 0) + speed }
            rows.append(row)
        }
        return QueueSnapshot(
            rows: rows, maxConcurrent: maxConcurrent, totalSpeed: totalSpeed, sequence: sequence, warning: warning,
            overallLimit: overallLimit)
    }

    /// `previous` with the rows of the tasks in `runtime` (running, backing off, or with a limit of their own)
    /// built again: what changes from one second to the next while nothing is added, removed, moved or changes
    /// state. Costs the tasks in `runtime`, not the queue. Nil when a row cannot be patched (its task is gone or
    /// changed state): the caller builds the whole snapshot then.
    ///
    /// - Parameter index: where each task's row is in `previous`.
    static func patched(
        _ previous: QueueSnapshot, index: [TaskID: Int], tasks: TaskTable, runtime: RuntimeTable, defaultSplit: Int,
        sequence: UInt64, now: ContinuousClock.Instant, wallNow: Date
    ) -> QueueSnapshot? {
        var snapshot = previous
        for id in runtime.byID.keys {
            guard let task = tasks[id], let position = index[id] else { return nil }
            let row = row(task, runtime[id], defaultSplit: defaultSplit, now: now, wallNow: wallNow)
            guard snapshot.updateRow(at: position, with: row) else { return nil }
        }
        snapshot.totalSpeed = snapshot.running.reduce(nil as Double?) { total, row in
            row.speed.map { (total ?? 0) + $0 } ?? total
        }
        snapshot.sequence = sequence
        return snapshot
    }

    /// One task's row: the stored task plus its live figures.
    static func row(
        _ task: DownloadTask, _ record: TaskRuntime, defaultSplit: Int, now: ContinuousClock.Instant, wallNow: Date
    ) -> QueueSnapshot.Row {
        var row = QueueSnapshot.Row(task: task, bytesReceived: task.bytesDone)
        if task.state == .running, let attempt = record.attempt {
            row.bytesReceived = attempt.position
            row.connections = attempt.connections
            row.segmentMap = attempt.segmentMap
            row.isStalled = attempt.meter.reading(at: now) == .stalled
            row.speed = attempt.meter.bytesPerSecond(at: now)
            row.eta = EtaEstimate.seconds(done: attempt.position, total: task.totalBytes, bytesPerSecond: row.speed)
        }
        // A cap or connections a settings rule gave the task count as its own, until a live change.
        row.rateLimit = record.rate(of: task).setLimit
        row.split = record.split ?? task.requestOptions.split ?? defaultSplit
        if task.state == .waiting, let retry = record.backoff, retry.date > wallNow { row.retryAt = retry.date }
        return row
    }
}
