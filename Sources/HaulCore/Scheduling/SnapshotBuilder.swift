import Foundation

/// Builds the front ends' `QueueSnapshot` from the controller's tasks and runtime records: pure, so it is
/// tested without the actor.
enum SnapshotBuilder {
    /// Unfinished tasks in queue order, then completed ones newest first; running rows carry live bytes,
    /// speed and ETA, waiting rows their retry time.
    static func build(
        tasks: TaskTable, runtime: RuntimeTable, maxConcurrent: Int, overallLimit: Int64?, defaultSplit: Int,
        sequence: UInt64, warning: String?,
        now: ContinuousClock.Instant, wallNow: Date
    ) -> QueueSnapshot {
        // Order small keys first, then build each row once: a queue can hold ten thousand tasks.
        var unfinishedKeys: [(position: Int64, id: TaskID)] = []
        var completedKeys: [(finished: Date, id: TaskID)] = []
        for task in tasks.values {
            if task.state == .completed {
                completedKeys.append((task.finishedAt ?? .distantPast, task.id))
            } else {
                unfinishedKeys.append((task.position, task.id))
            }
        }
        unfinishedKeys.sort { ($0.position, $0.id) < ($1.position, $1.id) }
        completedKeys.sort { ($0.finished, $0.id) > ($1.finished, $1.id) }
        var rows: [QueueSnapshot.Row] = []
        rows.reserveCapacity(unfinishedKeys.count + completedKeys.count)
        var totalSpeed: Double?
        for id in unfinishedKeys.lazy.map(\.id) + completedKeys.lazy.map(\.id) {
            guard let task = tasks[id] else { continue }
            var row = QueueSnapshot.Row(task: task, bytesReceived: task.bytesDone)
            let record = runtime[id]
            if task.state == .running, let attempt = record.attempt {
                row.bytesReceived = attempt.position
                row.connections = attempt.connections
                row.segmentMap = attempt.segmentMap
                row.isStalled = attempt.meter.reading(at: now) == .stalled
                row.speed = attempt.meter.bytesPerSecond(at: now)
                row.eta = EtaEstimate.seconds(done: attempt.position, total: task.totalBytes, bytesPerSecond: row.speed)
                if let speed = row.speed { totalSpeed = (totalSpeed ?? 0) + speed }
            }
            if let limit = record.rateLimit { row.rateLimit = limit > 0 ? limit : nil }
            row.split = record.split ?? defaultSplit
            if task.state == .waiting, let retry = record.backoff, retry.date > wallNow { row.retryAt = retry.date }
            rows.append(row)
        }
        return QueueSnapshot(
            rows: rows, maxConcurrent: maxConcurrent, totalSpeed: totalSpeed, sequence: sequence, warning: warning,
            overallLimit: overallLimit)
    }
}
