import Glibc
import HaulCore

/// HLS downloads on the engine thread (DESIGN §9): started as streams when the task is one, or taken over from
/// a transfer whose answer was a playlist; their fetches share the multi handle, the budgets and the host caps.
extension TransferThread {
    /// Starts a stream: from its playlist's bytes when a transfer just fetched them, else by fetching it.
    func startStream(_ request: TransferRequest, playlist: StreamTransfer.FetchedPlaylist?, attempt: Int? = nil) {
        let stream: StreamTransfer
        do {
            stream = try StreamTransfer(
                request: request, attempt: attempt ?? attempts, partsInUse: partsInUse, budget: budget, hosts: hosts,
                playlist: playlist) { [continuation] event in continuation.yield(event) }
        } catch {
            continuation.yield(.finished(request.id, .failed(error, durableBytes: request.stream?.appendedBytes ?? 0)))
            return
        }
        if stream.phase == .publishedEarlier {
            janitor.closingBegan(request.id, part: nil)
            disk.close(ClosingWork(ending: .publishedEarlier, stream: stream), for: request.id)
            return
        }
        streams[request.id] = stream
        budget.setTask(request.id, request.options.rateLimit)
        countConnections()
        proceed(stream, stream.pump())
    }

    /// The transfer's answer was a playlist: the task goes on as a stream in the same attempt.
    func becomeStream(_ transfer: ActiveTransfer, _ playlist: [UInt8]) {
        let id = transfer.request.id
        active[id] = nil
        countConnections()
        continuation.yield(.connections([id: 0]))
        startStream(
            transfer.request,
            playlist: .init(bytes: playlist, url: transfer.effectiveURL ?? transfer.request.url, origin: transfer.originReach),
            attempt: transfer.attempt)
    }

    /// Goes on after a change: new fetches start, or the stream concludes.
    func proceed(_ stream: StreamTransfer, _ next: TransferNext) {
        switch next {
        case .keepGoing, .becomeStream: addNewFetches(of: stream)
        case let .conclude(ending): conclude(stream, ending)
        }
    }

    /// Sets up and adds the fetches a stream made; one that cannot start fails the stream.
    func addNewFetches(of stream: StreamTransfer) {
        for fetch in stream.takeNewFetches() {
            do {
                try fetch.configure()
                try multi.add(fetch.easy)
            } catch {
                stream.forget(fetch)
                stream.fail(DownloadError(setup: error, host: fetch.host))
                return conclude(stream, stream.pump())
            }
        }
        let count = stream.fetches.count
        if count != stream.bookkeeping.lastConnectionCount {
            stream.bookkeeping.lastConnectionCount = count
            continuation.yield(.connections([stream.request.id: count]))
        }
    }

    private func conclude(_ stream: StreamTransfer, _ next: TransferNext) {
        if case let .conclude(ending) = next { conclude(stream, ending) }
    }

    func finished(_ fetch: StreamFetch, result: CurlResult) {
        let stream = fetch.stream
        guard streams[stream.request.id] === stream else { return }
        multi.remove(fetch.easy)
        if let next = fetch.nextHop(after: result) {
            // The next hop on the same handle, set up for its own URL.
            do throws(CurlError) {
                try fetch.follow(next)
                try multi.add(fetch.easy)
                return
            } catch {
                fetch.fail(DownloadError(setup: error, host: fetch.host))
            }
        }
        proceed(stream, stream.ended(fetch, result: result))
    }

    /// Takes the stream off the network at once, then syncs and publishes on the disk worker.
    func conclude(_ stream: StreamTransfer, _ ending: TransferEnding) {
        let id = stream.request.id
        for fetch in stream.closeAll() { multi.remove(fetch.easy) }
        budget.forget(id)
        streams[id] = nil
        countConnections()
        janitor.closingBegan(id, part: stream.tracks.first?.writer?.path)
        closingStreams[id] = stream.appendedInfo
        if let position = progressIfChanged(of: stream) { continuation.yield(.progress([id: position])) }
        disk.close(ClosingWork(ending: ending, stream: stream), for: id)
    }

    /// Every 250 ms: back-offs that ended, disk checks and checkpoints of the streams.
    func tickStreams(now: ContinuousClock.Instant, progressDue: Bool) {
        for stream in Array(streams.values) {
            if progressDue {
                proceed(stream, stream.tick(now: now))
                guard streams[stream.request.id] === stream else { continue }
            }
            if stream.bookkeeping.diskCheckDue(now: now) {
                do {
                    try stream.checkDisk()
                } catch {
                    conclude(stream, .failed(error))
                    continue
                }
            }
            guard !stream.tracks.isEmpty, stream.bookkeeping.checkpointDue(
                now: now, policy: CheckpointPolicy(seconds: stream.request.options.checkpointInterval),
                undurable: stream.position - (stream.info?.appendedBytes ?? 0), total: nil)
            else { continue }
            disk.sync(stream: stream.tracks.compactMap(\.writer), for: stream.request.id, attempt: stream.attempt,
                      positions: stream.positions)
        }
    }

    /// Each stream's received bytes and segment map, when they changed.
    func streamProgress() -> (positions: [TaskID: Int64], maps: [TaskID: SegmentMap]) {
        var positions: [TaskID: Int64] = [:]
        var maps: [TaskID: SegmentMap] = [:]
        for (id, stream) in streams {
            if let map = stream.segmentMap, map != stream.bookkeeping.lastMap {
                stream.bookkeeping.lastMap = map
                maps[id] = map
            }
            if let position = progressIfChanged(of: stream) { positions[id] = position }
        }
        return (positions, maps)
    }

    /// Deletes a task's part file — never through a link, and with `unlessHeld` only one no transfer holds —
    /// and the part file of its separate audio rendition beside it (`NAME.audio.part`).
    func unlinkPart(_ path: String, unlessHeld: Bool = false) {
        let audio = Self.audioPart(besidePart: path)
        for (file, always) in [(path, !unlessHeld), (audio, false)]
        where always || (!partsInUse.paths.contains(file) && DownloadDirectory.isRegularFile(file)) {
            unlink(file)
        }
    }

    /// The part file of a stream's separate audio rendition beside the part file at `path` (`NAME.audio.part`).
    static func audioPart(besidePart path: String) -> String {
        PartialFilePath.partName(for: StreamFileName.audioPart(of: String(path.dropLast(PartialFilePath.partName(for: "").count))))
    }

    private func progressIfChanged(of stream: StreamTransfer) -> Int64? {
        let position = stream.receivedBytes
        guard stream.info != nil, position != stream.bookkeeping.lastReported else { return nil }
        stream.bookkeeping.lastReported = position
        return position
    }
}
