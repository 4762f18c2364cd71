import HaulCore

/// One running download on the transfer thread: its part file, its connections, and for a download over
/// several connections the ledger of its ranges (DESIGN §5, §7). It orchestrates the pure policies: the
/// resume point, the response checks, the connection planner and the ending check.
///
/// Confined to the transfer thread. The engine keeps it (and through it every connection libcurl calls
/// back into) alive in its table until its handles have left the multi handle.
final class ActiveTransfer {
    let request: TransferRequest
    /// Distinguishes attempts of the same task, so late disk results of an old attempt are ignored.
    let attempt: Int
    /// The download directory; a category by content type may replace it at the first answer, before the
    /// name is decided (`chooseDirectory`).
    var directory: DownloadDirectory
    /// The content-type category that chose `directory`, if one did.
    var category: ContentTypeDirectory?
    let host: String
    let emit: (TransferEvent) -> Void
    /// The engine's receive limits, which every connection draws from.
    let budget: BandwidthBudget
    /// Connections per host across every transfer.
    let hosts: HostConnections
    /// The cookies every connection of this attempt shares.
    let cookies: CookieJar
    /// The task's `.netrc`, read when the attempt starts.
    let netrc: NetrcFile?
    /// Part files (full paths) of this engine's transfers.
    let partsInUse: PartRegistry
    /// The engine's own marks for this transfer (progress reported, checkpoints, disk checks).
    var bookkeeping = TransferBookkeeping()

    var phase = TransferPhase.awaitingResponse
    var fileName: String?
    var writer: FileWriter?
    /// Bytes of the file received so far (for a single stream: the content in the part file).
    var position: Int64 = 0
    /// Bytes known to be synced (for a segmented download: committed in the ledger).
    var durable: Int64 = 0
    var total: Int64?
    /// The validators every later answer must repeat.
    var validators: RemoteValidators
    /// A replaced link no answer confirmed yet (`LinkChange`): asked without If-Range, checked against the kept bytes.
    var newLink: LinkChange?
    /// Where the first request asks the body to start (sent as a Range when above 0).
    var requestedOffset: Int64 = 0
    /// Bumped on every truncation, so a sync started before it cannot record stale bytes.
    var epoch = 0
    /// The URL after redirects, which extra connections ask directly.
    var effectiveURL: String?
    /// Where the main link's first answer came from (the peer's address): what a playlist in it may lead to.
    var originReach: AddressReach?
    /// Whether the task's response was reported.
    var responded = false
    /// The first answer is a web page kept as a file (DESIGN §11): said in its report.
    var answeredWebPage = false
    /// The file size to allocate on disk, once, after the split (the engine does it on its disk queue).
    var pendingAllocation: Int64?
    /// The body of an answer that is an HLS playlist, gathered in memory for a stream (DESIGN §9).
    var playlistCapture: [UInt8]?
    /// The first answer's report, held until its first bytes decide the task's kind (`takePlaylist`).
    var heldReport: HeldReport?
    /// The first connection, whose answer allows splitting: its bytes wait while the engine loop plans the ranges
    /// (`advance`).
    var splitFrom: Connection?
    /// Mirrors whose first answer or sample agreed inside a callback: the engine loop opens their connections.
    var grownLinks: [TransferLink] = []

    /// The open connections.
    private(set) var connections: [Connection] = []
    /// Connections made since the engine last looked; it sets them up and adds them.
    private var pending: [Connection] = []
    /// The ranges of a download over several connections; nil for a single stream.
    var ledger: SegmentLedger?
    /// The main link, then the mirrors (DESIGN §8); each plans its own connections.
    let links: [TransferLink]
    /// Leases handed out and not yet done, so checkpoints can commit what each received.
    var leases: Set<SegmentLease.ID> = []
    /// The logins 401s refused, by the host of the link that led there (`ActiveTransfer+Logins`).
    var refusedLogins: [String: RefusedLogin] = [:]
    /// The bytes each mirror is asked first and compared with the main link's (`OverlapSample`); nil until the
    /// main link's first range is known.
    var sampleWindow: Range<Int64>?
    /// What the main link wrote of `sampleWindow`, from its start.
    var referenceSample: [UInt8] = []

    init(
        request: TransferRequest, attempt: Int, partsInUse: PartRegistry, budget: BandwidthBudget,
        hosts: HostConnections, emit: @escaping (TransferEvent) -> Void
    ) throws(DownloadError) {
        self.request = request
        self.budget = budget
        self.hosts = hosts
        self.attempt = attempt
        self.partsInUse = partsInUse
        self.emit = emit
        validators = request.validators
        newLink = request.linkChange
        cookies = try CookieJar(options: request.requestOptions, stored: request.cookies)
        netrc = try request.readNetrc()
        links = ([request.url] + request.mirrors).enumerated().map { index, url in
            TransferLink(index: index, url: url, split: request.options.split)
        }
        host = URLValidation.host(of: request.url)
        directory = try DownloadDirectory(path: request.directory, roots: request.options.confinementRoots)
        try resume()
    }

    /// Picks up where the task stands on disk (`ResumePoint`).
    private func resume() throws(DownloadError) {
        if let name = request.fileName { directory.dropPartLinkedToFinal(name) }
        let point = ResumePoint.decide(
            fileName: request.fileName, recordedBytes: request.resumeFrom, expectedTotal: request.expectedTotal,
            segments: request.segments,
            partSize: request.fileName.flatMap { directory.regularFileSize(PartialFilePath.partName(for: $0)) },
            finalFileSize: request.fileName.flatMap { directory.regularFileSize($0) },
            finalIsOurs: request.fileName.map { directory.carries(PartOwnerTag(request), $0) } ?? false)
        if case let .publishedEarlier(total) = point {
            fileName = request.fileName
            position = total
            durable = total
            phase = .publishedEarlier
            return
        }
        try directory.checkFreeSpace(for: request, needed: nil)
        switch point {
        case .publishedEarlier, .undecided:
            return
        case let .continuePart(offset, truncate):
            guard let name = request.fileName else { return }
            let writer = try openPart(name)
            if truncate { try writer.truncate(to: offset) }
            position = offset
            durable = offset
            requestedOffset = offset
            // A layout that no longer matches the file is replaced by the single stream's prefix.
            if !request.segments.isEmpty { emit(.segmentCheckpoint(request.id, [], durableBytes: offset)) }
        case let .continueSegments(restored):
            guard let name = request.fileName else { return }
            _ = try openPart(name)
            ledger = restored
            total = restored.total
            position = restored.committedBytes
            durable = position
        }
    }

    private func openPart(_ name: String) throws(DownloadError) -> FileWriter {
        let writer = try directory.openPart(of: name)
        hold(writer, name: name)
        return writer
    }

    /// Takes `writer` as the part file of `name`.
    func hold(_ writer: FileWriter, name: String) {
        fileName = name
        self.writer = writer
        partsInUse.paths.insert(writer.path)
    }

    deinit {
        // The part file stays registered until the engine's closing work on it is done (`.concluded`).
        writer?.close()
    }

    /// Makes the first connections: one request for the file, or one per planned range when a segmented
    /// download continues.
    func start() -> TransferNext {
        openFirstConnections()
        if case let .failed(error) = phase { return .conclude(.failed(error)) }
        return .keepGoing
    }

    private func openFirstConnections() {
        guard ledger != nil else {
            openFirst(on: links[0])
            return
        }
        for (lease, link) in planLinks(first: nil) {
            openRange(lease.id, from: lease.range.lowerBound, to: lease.range.upperBound, on: link)
            if link.isMain, sampleWindow == nil {
                sampleWindow = OverlapSample.window(start: lease.range.lowerBound, rangeEnd: lease.range.upperBound)
            }
        }
        openSamples()
        if connections.isEmpty { phase = .failed(.inconsistentTransfer("nothing left to fetch but the file is not complete")) }
    }

    /// Connections made since the last call, for the engine to set up and add to the multi handle.
    func takeNewConnections() -> [Connection] {
        defer { pending = [] }
        return pending
    }


    /// How many connections it has or may soon open (`-s`), for its share of a rate limit.
    var expectedConnections: Int { max(connections.count, request.options.split * links.count(where: \.isLive), 1) }

    /// A range connection for `lease`: one request for all of it, on `link` (the main link when nil). A cut
    /// later stops it where another connection took the rest (`apply`).
    func openRange(_ lease: SegmentLease.ID, from cursor: Int64, to leaseEnd: Int64, on link: TransferLink? = nil) {
        let link = link ?? links[0]
        add(Connection(role: .range, task: request.id, link: link, url: url(ofRangeOn: link), requested: cursor..<leaseEnd, lease: lease))
    }

    /// The first connection, on `link`: the file from where the part file stops.
    func openFirst(on link: TransferLink) {
        let url = link.isMain ? request.url : link.effectiveURL ?? link.url
        add(Connection(role: .first, task: request.id, link: link, url: url, requested: requestedOffset..<Int64.max, lease: nil))
    }

    func add(_ connection: Connection) {
        if connection.role == .range, connection.link.planner.takeFresh() { connection.fresh = true }
        hosts.opened(connection.link.host)
        if let lease = connection.lease { track(lease) }
        connections.append(connection)
        pending.append(connection)
    }

    /// Counts `lease` among those a checkpoint commits.
    func track(_ lease: SegmentLease.ID) { leases.insert(lease) }

    /// Ends the task for `error` at the next chance.
    func fail(_ error: DownloadError) { phase = .failed(error) }

    var isAlreadyComplete: Bool { phase == .alreadyComplete }

    /// The URL a range connection on `link` asks: straight where the link's first answer was redirected.
    func url(ofRangeOn link: TransferLink) -> String {
        link.isMain ? effectiveURL ?? request.url : link.effectiveURL ?? link.url
    }

    // MARK: - Body (transfer thread, inside curl_multi_perform)

    /// Writes body bytes of `connection` at its cursor; returns how many were taken (fewer aborts it).
    func write(_ bytes: UnsafeRawBufferPointer, from connection: Connection) -> Int {
        if let taken = takePlaylist(bytes, from: connection) { return taken }
        guard case .receiving = phase, let writer else { return 0 }
        if connection.isSample { return takeSample(bytes, from: connection) }
        var count = bytes.count
        if let end = connection.end {
            count = Int(min(Int64(count), max(0, end - connection.cursor)))
        } else if let total, connection.cursor + Int64(count) > total {
            let error = DownloadError.bodyPastLength(announced: total)
            connection.state = .failed(error)
            phase = .failed(error)
            return 0
        }
        if count > 0 {
            do {
                try writer.write(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), at: connection.cursor)
            } catch {
                // The disk failed: no connection can go on.
                connection.state = .failed(error)
                phase = .failed(error)
                return 0
            }
            if bookkeeping.wroteCheckingSpace(count) {
                do {
                    try directory.checkFreeSpace(for: request, needed: nil)
                } catch {
                    connection.state = .failed(error)
                    phase = .failed(error)
                    return 0
                }
            }
            if connection.link.isMain, sampleWindow != nil { keepReference(bytes, count: count, at: connection.cursor) }
            connection.cursor += Int64(count)
            connection.bytesSinceTick += Int64(count)
            if let lease = connection.lease, ledger != nil {
                ledger?.received(lease, bytes: Int64(count))
                position += Int64(count)
            } else {
                position = connection.cursor
            }
        }
        if let end = connection.end, connection.cursor >= end, connection.holdSpent || !awaitsTaker(connection) {
            connection.state = .reachedEnd
        }
        return count
    }

    // MARK: - Connections ending

    /// A connection left the network (`exit`); says what comes next.
    func ended(_ connection: Connection, exit: ConnectionExit) -> TransferNext {
        connections.removeAll { $0 === connection }
        if splitFrom === connection { splitFrom = nil }
        hosts.closed(connection.link.host)
        budget.drop(connection)
        if let playlist = playlistCapture, exit == .completed, case .receiving = phase {
            return .becomeStream(FetchedPlaylist(bytes: playlist, url: effectiveURL ?? request.url, origin: originReach))
        }
        if exit == .completed { reportHeldResponse() }
        guard ledger != nil else {
            let ending = EndingCheck.singleStream(
                phase: phase, state: connection.state, exit: exit, position: position, total: total, host: host)
            return fallOver(from: connection, ending) ?? .conclude(ending)
        }
        let verdict = EndingCheck.range(phase: phase, state: connection.state, exit: exit, host: host)
        if case let .conclude(ending) = verdict { return .conclude(ending) }
        let holder = connection.lease.flatMap { ledger?.lease(before: $0) }
        if let lease = connection.lease { ledger?.release(lease) }
        // What it did not fetch goes back to the connection before it when that one's request still asks for it
        // (the one it was cut from, waiting at the cut); that one then goes on, or stops at the cut.
        absorbFreeRanges()
        if let holder { releaseHold(of: holder) }
        if connection.isSample { sampleEnded(connection, verdict) }
        switch verdict {
        case let .conclude(ending):
            return .conclude(ending)
        case .finishedRange:
            // A connection that finished its range is likely reused (keep-alive): its speed is the thief's.
            return feed(thiefSpeed: connection.speed > 0 ? connection.speed : nil, thief: connection.link)
        case let .failedRange(error):
            connection.link.planner.rangeFailed(error, now: .now, othersRunning: !connections.isEmpty)
            return feed()
        }
    }

    /// Free ranges right after a running connection whose request still asks for them become its own: a range
    /// whose request was refused goes back to the connection it was cut from and is fetched without a new request
    /// (a link that expired or a host that rations requests would refuse that too).
    private func absorbFreeRanges() {
        guard ledger != nil else { return }
        for connection in connections where connection.isOpen && !connection.holdSpent {
            guard let lease = connection.lease, let end = connection.end, connection.requested.upperBound > end,
                  let newEnd = ledger?.absorbFree(after: lease, upTo: connection.requested.upperBound)
            else { continue }
            connection.end = newEnd
            if connection.heldSince != nil { releaseHold(of: lease) }
        }
    }

    /// Whether `connection`, a range connection at (or `incoming` bytes from crossing) its cut, must wait there:
    /// the range taken from it has no answer yet, and a refusal gives it back (`absorbFreeRanges`). Without the wait, a
    /// connection near its cut could stop before the refusal came and leave the range to a request that fails too.
    /// It waits half a second at most (`endStaleHolds`): a host that queues requests answers late, and the
    /// server's bytes pile up meanwhile.
    func holdsAtCut(_ connection: Connection, incoming: Int) -> Bool {
        guard let end = connection.end, connection.cursor + Int64(incoming) > end else { return false }
        return awaitsTaker(connection)
    }

    /// Whether the range right after `connection`'s was taken from it by a connection with no answer yet, and
    /// its request still asks for those bytes.
    func awaitsTaker(_ connection: Connection) -> Bool {
        guard let lease = connection.lease, let end = connection.end, connection.requested.upperBound > end
        else { return false }
        return hasUnansweredTaker(after: lease)
    }

    /// The range taken from lease `holder` has its answer (or its connection ended): a connection held at its cut
    /// goes on (it stops there if the range stayed taken).
    func releaseHold(of holder: SegmentLease.ID) {
        guard let keeper = connections.first(where: { $0.lease == holder && $0.heldSince != nil }) else { return }
        keeper.heldSince = nil
        keeper.easy.resume()
    }

    /// Connections that waited at their cut half a second stop waiting: they stop at the cut.
    func endStaleHolds(now: ContinuousClock.Instant) {
        for connection in connections {
            guard let since = connection.heldSince, now - since >= Self.longestHold else { continue }
            connection.heldSince = nil
            connection.holdSpent = true
            connection.easy.resume()
        }
    }

    static let longestHold = Duration.milliseconds(500)

    /// Stops every connection; returns their handles for the engine to remove.
    func closeAll() -> [CurlEasy] {
        splitFrom = nil
        grownLinks = []
        for connection in connections {
            budget.drop(connection)
            hosts.closed(connection.link.host)
        }
        defer { connections = [] }
        return connections.map(\.easy)
    }
}
