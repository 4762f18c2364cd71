import HaulCore

/// The engine's periodic work: progress and segment maps, slow connections, disk checks, checkpoints and cookie
/// jars kept within their bounds.
extension TransferThread {
    // MARK: - Periodic work

    func tick() {
        let now = ContinuousClock.now
        let progressDue = now - lastProgress >= Self.progressInterval
        if progressDue {
            reportProgress(seconds: (now - lastProgress).inSeconds)
            lastProgress = now
            for transfer in Array(active.values) {
                // Fresh connections for the slow ones, and extra ones once a refusal's wait is over.
                transfer.replaceSlowConnections()
                proceed(transfer, transfer.endHold(now: now))
            }
        }
        for transfer in active.values { transfer.endStaleHolds(now: now) }
        tickStreams(now: now, progressDue: progressDue)
        for transfer in active.values { transfer.cookies.trimIfGrown() }
        for stream in streams.values { stream.cookies.trimIfGrown() }
        for transfer in Array(active.values) {
            if transfer.bookkeeping.diskCheckDue(now: now) {
                do {
                    try transfer.checkDisk()
                } catch {
                    conclude(transfer, .failed(error))
                    continue
                }
            }
            guard let writer = transfer.writer, transfer.bookkeeping.checkpointDue(
                now: now, policy: CheckpointPolicy(seconds: transfer.request.options.checkpointInterval),
                undurable: transfer.position - transfer.durable, total: transfer.total)
            else { continue }
            disk.sync(writer, for: transfer.request.id, attempt: transfer.attempt, epoch: transfer.epoch,
                      bytes: transfer.position, marks: transfer.receivedMarks())
        }
    }

    /// Every transfer's new position and segment map, in one event each; folds connection speeds.
    func reportProgress(seconds: Double) {
        var batch: [TaskID: Int64] = [:]
        var maps: [TaskID: SegmentMap] = [:]
        for (id, transfer) in active {
            for connection in transfer.connections { connection.tick(seconds: seconds) }
            if let map = transfer.ledger?.map, map != transfer.bookkeeping.lastMap {
                transfer.bookkeeping.lastMap = map
                maps[id] = map
            }
            guard transfer.position != transfer.bookkeeping.lastReported, transfer.writer != nil else { continue }
            transfer.bookkeeping.lastReported = transfer.position
            batch[id] = transfer.position
        }
        let (streamPositions, streamMaps) = streamProgress()
        batch.merge(streamPositions) { $1 }
        maps.merge(streamMaps) { $1 }
        if !maps.isEmpty { continuation.yield(.segmentMaps(maps)) }
        if !batch.isEmpty { continuation.yield(.progress(batch)) }
    }

    func reportProgress(of transfer: ActiveTransfer) {
        guard transfer.position != transfer.bookkeeping.lastReported, transfer.writer != nil else { return }
        transfer.bookkeeping.lastReported = transfer.position
        continuation.yield(.progress([transfer.request.id: transfer.position]))
    }
}
