import HaulCore

/// The engine's periodic work: progress and segment maps, back-offs and slow connections, disk checks and
/// checkpoints.
extension TransferThread {
    func tick() {
        let now = ContinuousClock.now
        let progressDue = now - lastProgress >= Self.progressInterval
        if progressDue {
            reportProgress(seconds: (now - lastProgress).inSeconds)
            lastProgress = now
        }
        for transfer in Array(transfers.values) {
            proceed(transfer, transfer.tick(now: now, progressDue: progressDue))
            guard transfers[transfer.request.id] === transfer else { continue }
            if transfer.bookkeeping.diskCheckDue(now: now) {
                do {
                    try transfer.checkDisk()
                } catch {
                    conclude(transfer, .failed(error))
                    continue
                }
            }
            if let checkpoint = transfer.checkpointDue(now: now) {
                disk.sync(checkpoint, for: transfer.request.id, attempt: transfer.attempt)
            }
        }
    }

    /// Every transfer's new position and segment map, in one event each; folds connection speeds.
    func reportProgress(seconds: Double) {
        var batch: [TaskID: Int64] = [:]
        var maps: [TaskID: SegmentMap] = [:]
        for (id, transfer) in transfers {
            let (position, map) = transfer.progress(seconds: seconds)
            if let map { maps[id] = map }
            if let position { batch[id] = position }
        }
        if !maps.isEmpty { continuation.yield(.segmentMaps(maps)) }
        if !batch.isEmpty { continuation.yield(.progress(batch)) }
    }
}
