import HaulCore

/// A file transfer as the engine loop drives it (`EngineTransfer`): its connections' handles, periodic work,
/// checkpoints and closing.
extension ActiveTransfer: EngineTransfer {
    var openRequests: Int { connections.count }
    var isPublishedEarlier: Bool { phase == .publishedEarlier }
    var partPath: String? { writer?.path }

    func advance() -> TransferNext {
        if let first = splitFrom {
            splitFrom = nil
            split(from: first)
            // Its bytes waited for the plan; libcurl may hand them over inside the resume.
            first.easy.resume()
        }
        while !grownLinks.isEmpty { growAfterFirstAnswer(grownLinks.removeFirst()) }
        return .keepGoing
    }

    /// One file has no recording to end: it pauses.
    func stopRecording() -> TransferNext { .conclude(.paused) }

    func takeNewHandles() -> (handles: [CurlEasy], next: TransferNext) {
        var handles: [CurlEasy] = []
        var next = takeNewConnections()
        while let connection = next.first {
            next.removeFirst()
            do throws(CurlError) {
                try configure(connection)
                handles.append(connection.easy)
            } catch {
                let ending = ended(connection, exit: .failed(DownloadError(setup: error, host: host)))
                if case .conclude = ending { return ([], ending) }
                next += takeNewConnections()
            }
        }
        return (handles, .keepGoing)
    }

    func couldNotStart(_ easy: CurlEasy, _ error: CurlError) -> TransferNext {
        guard let connection = connection(of: easy) else { return .keepGoing }
        return ended(connection, exit: .failed(DownloadError(setup: error, host: host)))
    }

    func finished(_ easy: CurlEasy, result: CurlResult) -> HandleEnd {
        guard let connection = connection(of: easy) else { return .ended(.keepGoing, host: host) }
        // The next hop on the same connection, set up for its own URL.
        if follows(connection, after: result, configure: configure) { return .follows }
        return .ended(ended(connection, exit: exit(of: connection, result)), host: connection.link.host)
    }

    func stopped(_ easy: CurlEasy) -> TransferNext {
        guard let connection = connection(of: easy) else { return .keepGoing }
        return ended(connection, exit: .stopped)
    }

    func tick(now: ContinuousClock.Instant, progressDue: Bool) -> TransferNext {
        var next = TransferNext.keepGoing
        if progressDue {
            // Fresh connections for the slow ones, and extra ones once a refusal's wait is over.
            replaceSlowConnections()
            next = endHold(now: now)
        }
        endStaleHolds(now: now)
        cookies.trimIfGrown()
        return next
    }

    func checkpointDue(now: ContinuousClock.Instant) -> CheckpointSync? {
        guard let writer, bookkeeping.checkpointDue(
            now: now, policy: CheckpointPolicy(seconds: request.options.checkpointInterval),
            undurable: position - durable, total: total)
        else { return nil }
        return CheckpointSync(writers: [writer], coverage: .file(epoch: epoch, bytes: position, marks: receivedMarks()))
    }

    func synced(_ coverage: SyncCoverage) {
        // A sync started before a truncation cannot record stale bytes.
        guard case let .file(epoch, bytes, marks) = coverage, epoch == self.epoch else { return }
        synced(bytes: bytes, marks: marks)
    }

    func progress(seconds: Double?) -> (position: Int64?, map: SegmentMap?) {
        if let seconds { for connection in connections { connection.tick(seconds: seconds) } }
        var changedMap: SegmentMap?
        if let map = ledger?.map, map != bookkeeping.lastMap {
            bookkeeping.lastMap = map
            changedMap = map
        }
        guard position != bookkeeping.lastReported, writer != nil else { return (nil, changedMap) }
        bookkeeping.lastReported = position
        return (position, changedMap)
    }

    func closingWork(_ ending: TransferEnding) -> ClosingWork {
        ClosingWork(ending: explained(ending), transfer: self)
    }
}
