import Foundation

extension DownloadController {
    /// Carries out one engine event. Events arrive in the order the engine produced them.
    func apply(_ event: TransferEvent) {
        switch event {
        case let .responded(id, response):
            guard var task = tasks[id] else { return }
            task.fileName = response.fileName
            task.totalBytes = response.totalBytes
            task.validators = response.validators
            task.bytesDone = min(task.bytesDone, response.offset)
            if let reason = response.restartReason {
                task.lastError = "restarted from byte 0: \(reason)"
                eventSink.yield(.restarted(task, reason: reason))
            }
            live[id]?.position = response.offset
            live[id]?.meter.reset()
            save(task)

        case let .progress(batch):
            let now = ContinuousClock.now
            for (id, position) in batch {
                live[id]?.position = position
                live[id]?.meter.record(position: position, at: now)
            }

        case let .checkpoint(id, bytes):
            guard var task = tasks[id], removing[id] == nil else { return }
            task.bytesDone = bytes
            tasks[id] = task
            unrecordedProgress[id] = bytes

        case let .finished(id, outcome):
            // Only transfers we started end; anything else is stale.
            guard inFlight.remove(id) != nil else { return }
            live[id] = nil
            let startedAt = attemptStart.removeValue(forKey: id)
            if let removed = removing.removeValue(forKey: id) {
                finishRemoval(removed.task, outcome: outcome, deleteFile: removed.deleteFile)
            } else if let task = tasks[id] {
                conclude(task, outcome, startedAt: startedAt)
            }
            fillSlots()
            stopIfIdle()
        }
        // Front ends read the snapshot on the next tick (200 ms); rebuilding it per event costs O(queue).
        if case .progress = event {} else { snapshotDirty = true }
    }

    private func conclude(_ task: DownloadTask, _ outcome: TransferOutcome, startedAt: Int64?) {
        let (updated, effect) = TaskLifecycle.apply(
            outcome, to: task, retryPolicy: configuration.retryPolicy, startedAt: startedAt)
        save(updated)
        switch effect {
        case .completed:
            summary.completed += 1
            eventSink.yield(.completed(updated))
        case .stopped:
            if updated.state == .paused { eventSink.yield(.paused(updated)) }
        case .requeued:
            break
        case let .retry(after, error):
            let instant = ContinuousClock.now + .milliseconds(Int64(after * 1000))
            backoff[task.id] = (instant, Date().addingTimeInterval(after))
            eventSink.yield(.retrying(updated, after: after, error: error))
        case let .pausedByError(error):
            summary.pausedByError += 1
            eventSink.yield(.failed(updated, error: error))
        case let .failed(error):
            summary.failed += 1
            eventSink.yield(.failed(updated, error: error))
        }
    }

    /// The engine let go of a task the user removed meanwhile: delete its part file if asked.
    private func finishRemoval(_ task: DownloadTask, outcome: TransferOutcome, deleteFile: Bool) {
        guard deleteFile, let name = task.fileName else { return }
        if case .completed = outcome { return }  // a finished file is the user's, never deleted here
        try? FileManager.default.removeItem(atPath: PartialFilePath.path(directory: task.directory, fileName: name))
    }
}
