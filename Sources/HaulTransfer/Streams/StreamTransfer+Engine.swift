import HaulCore

/// A stream as the engine loop drives it (`EngineTransfer`): its fetches' handles and callbacks, periodic work,
/// checkpoints and closing.
extension StreamTransfer: EngineTransfer {
    var host: String { URLValidation.host(of: request.url) }
    var openRequests: Int { fetches.count }
    var expectedConnections: Int { targetConnections }
    var isPublishedEarlier: Bool { phase == .publishedEarlier }
    var partPath: String? { tracks.first?.writer?.path }

    func start() -> TransferNext { pump() }

    func advance() -> TransferNext {
        guard sizeAnnounced else { return .keepGoing }
        sizeAnnounced = false
        return pump()
    }

    func takeAllocation() -> (writer: FileWriter, length: Int64)? { nil }
    func allocated() {}

    func takeNewHandles() -> (handles: [CurlEasy], next: TransferNext) {
        var handles: [CurlEasy] = []
        for fetch in takeNewFetches() {
            do throws(CurlError) {
                try configure(fetch)
                handles.append(fetch.easy)
            } catch {
                forget(fetch)
                fail(DownloadError(setup: error, host: fetch.host))
                return ([], pump())
            }
        }
        return (handles, .keepGoing)
    }

    func couldNotStart(_ easy: CurlEasy, _ error: CurlError) -> TransferNext {
        guard let fetch = fetch(of: easy) else { return .keepGoing }
        forget(fetch)
        fail(DownloadError(setup: error, host: fetch.host))
        return pump()
    }

    func finished(_ easy: CurlEasy, result: CurlResult) -> HandleEnd {
        guard let fetch = fetch(of: easy) else { return .ended(.keepGoing, host: host) }
        // The next hop on the same handle, set up for its own URL.
        if follows(fetch, after: result, configure: configure) { return .follows }
        return .ended(ended(fetch, result: result), host: fetch.host)
    }

    func setTargetConnections(_ count: Int) -> (next: TransferNext, shed: [CurlEasy]) {
        targetConnections = count
        return (pump(), [])
    }

    /// A stream's fetches are each one segment: none is given up for another task.
    func shedConnection() -> CurlEasy? { nil }
    func stopped(_ easy: CurlEasy) -> TransferNext { .keepGoing }
    /// It takes room at its next segment, not when room opens.
    func uses(_ host: String) -> Bool { false }
    func grow() -> TransferNext { .keepGoing }

    func tick(now: ContinuousClock.Instant, progressDue: Bool) -> TransferNext {
        cookies.trimIfGrown()
        // Live reloads are due at the target duration, not once a second.
        let reloads = isLive && liveTick(now: now)
        let next = progressDue ? tick(now: now) : .keepGoing
        return next == .keepGoing && reloads ? pump() : next
    }

    func checkpointDue(now: ContinuousClock.Instant) -> CheckpointSync? {
        guard !tracks.isEmpty, bookkeeping.checkpointDue(
            now: now, policy: CheckpointPolicy(seconds: request.options.checkpointInterval),
            undurable: position - (info?.appendedBytes ?? 0), total: nil)
        else { return nil }
        return CheckpointSync(writers: tracks.compactMap(\.writer), coverage: .stream(positions: positions))
    }

    func synced(_ coverage: SyncCoverage) {
        guard case let .stream(positions) = coverage else { return }
        synced(positions: positions)
    }

    func progress(seconds: Double?) -> (position: Int64?, map: SegmentMap?) {
        var changedMap: SegmentMap?
        if let map = segmentMap, map != bookkeeping.lastMap {
            bookkeeping.lastMap = map
            changedMap = map
        }
        let position = receivedBytes
        guard info != nil, position != bookkeeping.lastReported else { return (nil, changedMap) }
        bookkeeping.lastReported = position
        return (position, changedMap)
    }

    func closingWork(_ ending: TransferEnding) -> ClosingWork {
        ClosingWork(ending: ending, stream: self)
    }
}
