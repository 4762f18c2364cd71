import CCurl
import Foundation
import HaulCore

/// One running download on the transfer thread: its part file, its connections, and for a download over
/// several connections the ledger of its ranges (DESIGN §5, §7).
///
/// Confined to the transfer thread. The engine keeps it (and through it every connection libcurl calls
/// back into) alive in its table until its handles have left the multi handle.
final class ActiveTransfer {
    /// Where the task stands.
    enum Phase: Equatable {
        /// No accepted response head yet.
        case awaitingResponse
        /// Body bytes go into the part file.
        case receiving
        /// A 416 at the file's end: the part file already holds every byte.
        case alreadyComplete
        /// The final file is in place from a run that died before recording it: nothing to fetch.
        case publishedEarlier
        /// The task must end for this reason.
        case failed(DownloadError)
    }

    /// How the task ended, for the closing work.
    enum Ending: Sendable {
        case paused
        case failed(DownloadError)
        case complete
        /// A range answer says the file changed: empty the part file and start over.
        case fileChanged(String)
    }

    /// What the engine does after a connection ended.
    enum Next {
        /// Other connections go on (new ones may wait in `takeNewConnections()`).
        case keepGoing
        case conclude(Ending)
    }

    let request: TransferRequest
    /// Distinguishes attempts of the same task, so late disk results of an old attempt are ignored.
    let attempt: Int
    let directory: DownloadDirectory
    let host: String
    let emit: (TransferEvent) -> Void
    /// The engine's receive limits, which every connection draws from.
    let budget: BandwidthBudget
    /// Connections per host across every transfer.
    let hosts: HostConnections

    private(set) var phase = Phase.awaitingResponse
    private(set) var fileName: String?
    private(set) var writer: FileWriter?
    /// Bytes of the file received so far (for a single stream: the content in the part file).
    private(set) var position: Int64 = 0
    /// Bytes known to be synced (for a segmented download: committed in the ledger).
    var durable: Int64 = 0
    private(set) var total: Int64?
    /// The validators every later answer must repeat.
    private(set) var validators: RemoteValidators
    /// Where the first request asks the body to start (sent as a Range when above 0).
    private(set) var requestedOffset: Int64 = 0
    /// Bumped on every truncation, so a sync started before it cannot record stale bytes.
    private(set) var epoch = 0
    var lastReported: Int64 = -1
    var lastCheckpoint: ContinuousClock.Instant = .now
    var lastDiskCheck: ContinuousClock.Instant = .now
    var syncInFlight = false
    var lastConnectionCount = 0
    /// The segment map last reported, so an unchanged one is not sent again.
    var lastMap: SegmentMap?
    /// The URL after redirects, which extra connections ask directly.
    private(set) var effectiveURL: String?

    /// The open connections.
    private(set) var connections: [Connection] = []
    /// Connections made since the engine last looked; it sets them up and adds them.
    private var pending: [Connection] = []
    /// The ranges of a download over several connections; nil for a single stream.
    private(set) var ledger: SegmentLedger?
    /// Leases handed out and not yet done, so checkpoints can commit what each received.
    private var leases: Set<SegmentLease.ID> = []
    private var responded = false
    /// Extra connections that failed; past `maxRangeFailures` no more are opened.
    private var rangeFailures = 0
    private var lastRangeError: DownloadError?
    static let maxRangeFailures = 3
    /// A refused range asked to come back later (`Retry-After`): no extra connection opens before then.
    private(set) var extrasHeldUntil: ContinuousClock.Instant?
    /// Waits after which extra connections start afresh; past them refusals count as failures for good.
    private var holdsLeft = 3

    /// Part files (full paths) of this engine's transfers; owned by the transfer thread.
    private let partsInUse: PartRegistry

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
        host = URLValidation.host(of: request.url)
        directory = try DownloadDirectory(path: request.directory, roots: request.options.confinementRoots)
        let point = ResumePoint.decide(
            fileName: request.fileName, recordedBytes: request.resumeFrom, expectedTotal: request.expectedTotal,
            segments: request.segments,
            partSize: request.fileName.flatMap { directory.regularFileSize(PartialFilePath.partName(for: $0)) },
            finalFileSize: request.fileName.flatMap { directory.regularFileSize($0) })
        switch point {
        case let .publishedEarlier(total):
            fileName = request.fileName
            position = total
            durable = total
            phase = .publishedEarlier
        case .undecided:
            try checkFreeSpace(needed: nil)
        case let .continuePart(offset, truncate):
            try checkFreeSpace(needed: nil)
            guard let name = request.fileName else { return }
            let writer = try openPart(name)
            if truncate { try writer.truncate(to: offset) }
            position = offset
            durable = offset
            requestedOffset = offset
            // A layout that no longer matches the file is replaced by the single stream's prefix.
            if !request.segments.isEmpty { emit(.segmentCheckpoint(request.id, [], durableBytes: offset)) }
        case let .continueSegments(restored):
            try checkFreeSpace(needed: nil)
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
        fileName = name
        self.writer = writer
        partsInUse.paths.insert(writer.path)
        return writer
    }

    deinit {
        // The part file stays registered until the engine's closing work on it is done (`.concluded`).
        writer?.close()
    }

    /// Makes the first connections: one request for the file, or one per planned range when a segmented
    /// download continues.
    func start() {
        guard ledger != nil else {
            add(Connection(role: .first, transfer: self, requested: requestedOffset..<Int64.max, lease: nil))
            return
        }
        for lease in planLeases(connections: max(1, min(request.options.split, hosts.room(for: host)))) {
            add(Connection(role: .range, transfer: self, requested: lease.range, lease: lease.id))
        }
        if connections.isEmpty { phase = .failed(.serverLied("nothing left to fetch but the file is not complete")) }
    }

    /// The file size to allocate on disk, once, after the split (the engine does it on its disk queue).
    private var pendingAllocation: Int64?

    func takeAllocation() -> Int64? {
        defer { pendingAllocation = nil }
        return pendingAllocation
    }

    /// Connections made since the last call, for the engine to set up and add to the multi handle.
    func takeNewConnections() -> [Connection] {
        defer { pending = [] }
        return pending
    }

    var hasNewConnections: Bool { !pending.isEmpty }

    private func add(_ connection: Connection) {
        if connection.role == .range, freshOwed > 0 {
            freshOwed -= 1
            connection.fresh = true
        }
        hosts.opened(host)
        if let lease = connection.lease { leases.insert(lease) }
        connections.append(connection)
        pending.append(connection)
    }

    /// Ends the task for `error` at the next chance.
    func fail(_ error: DownloadError) { phase = .failed(error) }

    var isAlreadyComplete: Bool { phase == .alreadyComplete }

    /// The URL connections ask: extra ones go straight to where the first was redirected.
    func url(for connection: Connection) -> String {
        connection.role == .range ? (effectiveURL ?? request.url) : request.url
    }

    // MARK: - Response heads (transfer thread, inside curl_multi_perform)

    /// A connection's final response head arrived.
    func accept(_ head: ResponseHead, on connection: Connection) {
        if effectiveURL == nil { effectiveURL = connection.easy.info(string: CURLINFO_EFFECTIVE_URL) }
        // 0 on a reused connection: the largest seen stands for the server's distance.
        if let micros = connection.easy.info(offset: CURLINFO_CONNECT_TIME_T), micros > 0 {
            connectSeconds = max(connectSeconds, Double(micros) / 1_000_000)
        }
        switch connection.role {
        case .first: acceptFirst(head, on: connection)
        case .range: acceptRange(head, on: connection)
        }
    }

    private func acceptFirst(_ head: ResponseHead, on connection: Connection) {
        let verdict = ResumeCheck.verdict(
            head: head, requestedOffset: requestedOffset, expectedTotal: request.expectedTotal,
            storedValidators: request.validators, host: host)
        var restartReason: String?
        do {
            switch verdict {
            case let .append(offset, total):
                position = offset
                self.total = total
            case let .restart(total, reason):
                try startOver(head)
                self.total = total
                restartReason = reason
            case let .alreadyComplete(total):
                self.total = total
                phase = .alreadyComplete
                connection.state = .reachedEnd
                return
            case let .reject(error):
                connection.state = .failed(error)
                phase = .failed(error)
                return
            case let .discardAndRetry(error):
                if writer != nil { try startOver(head) }
                connection.state = .failed(error)
                phase = .failed(error)
                return
            }
            if let total { try checkFreeSpace(needed: total - position) }
        } catch {
            connection.state = .failed(error)
            phase = .failed(error)
            return
        }
        phase = .receiving
        connection.state = .receiving
        connection.cursor = position
        validators = RemoteValidators(etag: head["etag"], lastModified: head["last-modified"])
        reportResponse(status: head.status, restartReason: restartReason)
        if request.options.split > 1,
           RangeCheck.allowsSplitting(head: head, total: total, from: position, minSplit: request.options.minSplitSize) {
            split(from: connection)
        }
    }

    private func acceptRange(_ head: ResponseHead, on connection: Connection) {
        guard let total else { return connection.state = .failed(.serverLied("no total for a range request")) }
        switch RangeCheck.verdict(head: head, requested: connection.requested, total: total, validators: validators, host: host) {
        case let .accept(end):
            connection.state = .receiving
            connection.end = min(connection.end ?? end, end)
            if !responded {
                phase = .receiving
                reportResponse(status: head.status, restartReason: nil)
            }
        case .ignoresRanges:
            connection.state = .rangesIgnored
        case let .changed(reason):
            connection.state = .fileChanged(reason)
        case let .reject(error):
            connection.state = .failed(error)
        }
    }

    private func reportResponse(status: Int, restartReason: String?) {
        guard let fileName else { return }
        responded = true
        emit(.responded(request.id, ResponseSummary(
            fileName: fileName, totalBytes: total, validators: validators, offset: ledger?.committedBytes ?? position,
            restartReason: restartReason, httpStatus: status)))
    }

    /// Empties the part file (reserving one first when the name is not decided yet); records 0 durable bytes.
    private func startOver(_ head: ResponseHead) throws(DownloadError) {
        if let writer {
            try writer.truncate(to: 0)
        } else {
            let name = FileNameChoice.choose(
                requested: request.requestedName, contentDisposition: head["content-disposition"], url: request.url,
                effectiveURL: { self.effectiveURL })
            let (reserved, writer) = try directory.reservePart(
                for: name, inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere)
            fileName = reserved
            self.writer = writer
            partsInUse.paths.insert(writer.path)
        }
        epoch += 1
        position = 0
        // Recording 0 needs no sync: the database may never claim more than the file holds.
        if durable != 0 || request.resumeFrom != 0 { emit(.checkpoint(request.id, durableBytes: 0)) }
        durable = 0
    }

    // MARK: - Splitting (DESIGN §7)

    /// The first answer allows several connections: have the file allocated, cut the rest into ranges, keep
    /// the first connection on the first range and open one for each other.
    private func split(from first: Connection) {
        guard let total else { return }
        let prefix = position
        guard writer != nil, var ledger = SegmentLedger(
            total: total, segments: prefix > 0 ? [SegmentRecord(start: 0, end: prefix, committed: prefix)] : [])
        else { return }
        // Off this thread: allocating takes a while where it really reserves blocks (0.3 s a GiB on tmpfs),
        // and the connections need not wait for it.
        pendingAllocation = total
        // The first connection is counted already; the others only where the host has room.
        let planned = ledger.plan(
            connections: 1 + min(request.options.split - 1, hosts.room(for: host)), minSplit: request.options.minSplitSize)
        guard let head = planned.first, head.range.lowerBound == prefix else { return }
        self.ledger = ledger
        first.lease = head.id
        first.end = head.range.upperBound
        leases.insert(head.id)
        for lease in planned.dropFirst() {
            add(Connection(role: .range, transfer: self, requested: lease.range, lease: lease.id))
        }
        // The layout becomes the truth about the file once the file is allocated (`layoutAllocated`).
    }

    /// The part file is allocated at full size: from now on the layout is the truth about the file, so it
    /// is recorded (the prefix is durable already).
    func layoutAllocated() {
        guard let ledger else { return }
        emit(.segmentCheckpoint(request.id, ledger.records, durableBytes: ledger.committedBytes))
    }

    /// The first leases of a continued segmented download.
    private func planLeases(connections: Int) -> [SegmentLease] {
        guard var ledger else { return [] }
        defer { self.ledger = ledger }
        return ledger.plan(connections: connections, minSplit: request.options.minSplitSize)
    }

    // MARK: - Body (transfer thread, inside curl_multi_perform)

    /// Writes body bytes of `connection` at its cursor; returns how many were taken (fewer aborts it).
    func write(_ bytes: UnsafeRawBufferPointer, from connection: Connection) -> Int {
        guard case .receiving = phase, let writer else { return 0 }
        var count = bytes.count
        if let end = connection.end {
            count = Int(min(Int64(count), max(0, end - connection.cursor)))
        } else if let total, connection.cursor + Int64(count) > total {
            let error = DownloadError.serverLied("sent more than the \(total) bytes it announced")
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
            connection.cursor += Int64(count)
            connection.bytesSinceTick += Int64(count)
            if let lease = connection.lease, ledger != nil {
                ledger?.received(lease, bytes: Int64(count))
                position += Int64(count)
            } else {
                position = connection.cursor
            }
        }
        if let end = connection.end, connection.cursor >= end { connection.state = .reachedEnd }
        return count
    }

    // MARK: - Connections ending

    /// A connection's transfer ended with `result` (nil when the engine stopped it); says what comes next.
    func ended(_ connection: Connection, result: CURLcode?) -> Next {
        connections.removeAll { $0 === connection }
        hosts.closed(host)
        budget.drop(connection)
        guard ledger != nil else { return .conclude(singleStreamEnding(connection, result: result)) }
        if case let .failed(error) = phase { return .conclude(.failed(error)) }
        if case let .fileChanged(reason) = connection.state { return .conclude(.fileChanged(reason)) }
        if connection.state == .rangesIgnored { return .conclude(.failed(.rangesIgnored(host: host))) }
        let finishedItsRange = connection.state == .reachedEnd || (result == CURLE_OK && connection.state == .receiving)
        if let lease = connection.lease { ledger?.release(lease) }
        if !finishedItsRange {
            let error: DownloadError
            if case let .failed(failure) = connection.state {
                error = failure
            } else if let result, result != CURLE_OK {
                error = connectionError(connection, result: result)
            } else {
                error = .serverLied("the connection ended without a usable response")
            }
            rangeFailures += 1
            lastRangeError = error
            if let seconds = error.retryAfter, seconds > 0 {
                let until = ContinuousClock.now + .milliseconds(Int64(min(seconds, 3600) * 1000))
                extrasHeldUntil = max(extrasHeldUntil ?? until, until)
            }
        }
        // A connection that finished its range is likely reused (keep-alive): its speed is the thief's.
        return feedIdleConnections(thiefSpeed: finishedItsRange && connection.speed > 0 ? connection.speed : nil)
    }

    /// After a connection ended: done when every byte arrived; else open connections for free ranges or
    /// halves of the slowest ones, up to `-s`, while extra connections keep working.
    private func feedIdleConnections(thiefSpeed: Double? = nil) -> Next {
        guard var ledger else { return .keepGoing }
        if ledger.receivedBytes >= ledger.total, connections.isEmpty { return .conclude(.complete) }
        // A server that keeps refusing connections: end the attempt (a retry continues from the layout).
        if rangeFailures >= 2 * Self.maxRangeFailures, connections.isEmpty, let lastRangeError {
            return .conclude(.failed(lastRangeError))
        }
        // The last connection is always replaced: the download goes on, and a refusal ends the attempt.
        while connections.count < targetConnections,
              rangeFailures < Self.maxRangeFailures || connections.isEmpty,
              connections.isEmpty || (hosts.room(for: host) > 0 && extrasHeldUntil == nil) {
            let speeds = speeds()
            guard let grant = ledger.leaseNext(
                minSplit: Self.stealingMinimum(speeds: speeds), speeds: speeds, newSpeed: thiefSpeed) else { break }
            if let shrunk = grant.shrunk, let victim = connections.first(where: { $0.lease == shrunk.lease }) {
                victim.end = shrunk.newEnd
            }
            self.ledger = ledger
            add(Connection(role: .range, transfer: self, requested: grant.lease.range, lease: grant.lease.id))
            if rangeFailures >= Self.maxRangeFailures { break }
        }
        // Free ranges no new connection takes now: the first connection's request runs to the end of the
        // file, so it fetches on into the range after its own without asking again.
        if let first = connections.first(where: { $0.role == .first && $0.isOpen }), let lease = first.lease {
            while let end = ledger.extend(lease) { first.end = end }
        }
        self.ledger = ledger
        guard connections.isEmpty else { return .keepGoing }
        if ledger.receivedBytes >= ledger.total { return .conclude(.complete) }
        return .conclude(.failed(lastRangeError ?? .serverLied("every connection ended before the file was complete")))
    }

    /// Replacements of slow connections this attempt may still make: enough for every connection to be
    /// replaced twice, never an endless churn on a server whose every connection is slow.
    private lazy var replacementsLeft = 2 * max(1, request.options.split)
    /// Fresh connections owed for slow ones closed by `replaceSlowConnections`.
    private var freshOwed = 0
    /// The longest TCP handshake of this attempt's connections, in seconds: about one round trip.
    private var connectSeconds = 0.0

    /// Closes connections that stay far below the fast ones (`SlowConnectionCheck`); the engine removes
    /// their handles and ends them, and their ranges go to fresh connections. None under a bandwidth
    /// limit, which paces the connections itself, nor while the server asked extra connections to wait.
    func replaceSlowConnections() -> [Connection] {
        guard ledger != nil, case .receiving = phase, replacementsLeft > 0, extrasHeldUntil == nil, !budget.limits(request.id)
        else { return [] }
        let running = connections.filter { $0.state == .receiving && $0.lease != nil }
        let samples = running.enumerated().map { index, connection in
            SlowConnectionCheck.Sample(
                id: index, speed: connection.speed, receivingSeconds: connection.receivingSeconds,
                remaining: connection.remaining)
        }
        // Ten round trips (a TCP handshake is one) let a new connection's slow start reach full speed.
        let settling = 10 * connectSeconds
        let victims = SlowConnectionCheck.replacements(among: samples, allowance: replacementsLeft, settling: settling)
            .map { running[$0] }
        replacementsLeft -= victims.count
        freshOwed += victims.count
        // Ended on purpose, like a range that reached its end: not a failure of the server.
        for victim in victims { victim.state = .reachedEnd }
        return victims
    }

    /// Connections this task may use now (`-s`, changed live).
    private(set) lazy var targetConnections = max(1, request.options.split)

    /// A new connection count from now on: more open at once where there is work and room; fewer
    /// close as their ranges end (the extra ones at once).
    func setTargetConnections(_ count: Int) -> (Next, [Connection]) {
        targetConnections = max(1, count)
        var shed: [Connection] = []
        while connections.count - shed.count > targetConnections, let victim = shedConnection(excluding: shed) { shed.append(victim) }
        return (grow(), shed)
    }

    /// The wait a refused range asked for is over: extra connections may open again, with their failures
    /// forgotten (the server said when to come back), a few times per attempt.
    func endHold(now: ContinuousClock.Instant) -> Next {
        guard let until = extrasHeldUntil, until <= now else { return .keepGoing }
        extrasHeldUntil = nil
        if holdsLeft > 0 {
            holdsLeft -= 1
            rangeFailures = 0
        }
        return grow()
    }

    /// Room opened on the host (another task ended or gave up a connection): take it for more ranges.
    func grow() -> Next {
        guard ledger != nil, case .receiving = phase, connections.count < targetConnections else { return .keepGoing }
        return feedIdleConnections()
    }

    /// The smallest piece worth taking from a running range: a quarter second of the typical connection
    /// (at least 256 KiB). Taking a range from a connection costs the bytes it has in flight, so on a fast
    /// server nothing is taken, and on servers that cap each connection the slow tail is cut finely.
    static func stealingMinimum(speeds: [SegmentLease.ID: Double]) -> Int64 {
        let known = speeds.values.filter { $0 > 0 }.sorted()
        guard !known.isEmpty else { return 4 << 20 }
        let typical = known[known.count / 2]
        return max(256 << 10, Int64(min(typical * 0.25, Double(Int64.max / 4))))
    }

    /// Bytes per second of each running lease, for choosing which to halve. A connection that has not
    /// received for half a second yet is left out (the ledger takes it to run at the median): its speed
    /// says nothing yet, and taking it for one that never finishes would cut the range it just got.
    private func speeds() -> [SegmentLease.ID: Double] {
        var speeds: [SegmentLease.ID: Double] = [:]
        for connection in connections where connection.receivingSeconds >= 0.5 {
            if let lease = connection.lease { speeds[lease] = connection.speed }
        }
        return speeds
    }

    /// How the single stream ended, given libcurl's result code (nil when the engine stops it).
    private func singleStreamEnding(_ connection: Connection, result: CURLcode?) -> Ending {
        if case let .failed(error) = phase { return .failed(error) }
        if case let .failed(error) = connection.state { return .failed(error) }
        guard let result else { return .paused }
        guard result == CURLE_OK else { return .failed(connectionError(connection, result: result)) }
        switch phase {
        case .alreadyComplete, .publishedEarlier:
            return .complete
        case .awaitingResponse, .failed:
            return .failed(.serverLied("the connection ended without a usable response"))
        case .receiving:
            if let total, position != total { return .failed(.sizeMismatch(expected: total, actual: position)) }
            return .complete
        }
    }

    private func connectionError(_ connection: Connection, result: CURLcode) -> DownloadError {
        DownloadError(
            curlCode: result, detail: connection.detail, url: url(for: connection),
            effectiveURL: connection.easy.info(string: CURLINFO_EFFECTIVE_URL), host: host,
            responseSeen: connection.head.status != 0, stallTimeout: request.options.stallTimeout,
            proxyStatus: connection.easy.info(long: CURLINFO_HTTP_CONNECTCODE) ?? 0)
    }

    /// Gives up one extra connection so another task can have the host (the engine removes its handle):
    /// the one with the most left to fetch; its unfetched bytes go back to be taken later. Nil when this
    /// transfer has only one connection.
    func shedConnection(excluding skipped: [Connection] = []) -> Connection? {
        let candidates = connections.filter { connection in !skipped.contains { $0 === connection } }
        guard ledger != nil, candidates.count > 1 else { return nil }
        let victim = candidates.max { ($0.end ?? 0) - $0.cursor < ($1.end ?? 0) - $1.cursor }
        // Ended on purpose, like a range that reached its end: not a failure of the server.
        victim?.state = .reachedEnd
        return victim
    }

    /// Stops every connection (the engine removes their handles); returns them.
    func closeAll() -> [Connection] {
        for connection in connections {
            budget.drop(connection)
            hosts.closed(host)
        }
        defer { connections = [] }
        return connections
    }

    // MARK: - Durability

    /// What each lease received up to now, for a checkpoint: committed once a sync covering them is done.
    func receivedMarks() -> [SegmentLease.ID: Int64] {
        guard let ledger else { return [:] }
        var marks: [SegmentLease.ID: Int64] = [:]
        for lease in leases {
            guard let status = ledger.status(of: lease) else {
                leases.remove(lease)
                continue
            }
            marks[lease] = status.range.lowerBound + status.received
        }
        return marks
    }

    /// A sync that covered `marks` finished: commit them and report the layout.
    func commit(_ marks: [SegmentLease.ID: Int64]) {
        guard var ledger else { return }
        for (lease, offset) in marks { ledger.commit(lease, durableUpTo: offset) }
        self.ledger = ledger
        durable = ledger.committedBytes
        emit(.segmentCheckpoint(request.id, ledger.records, durableBytes: durable))
    }

    // MARK: - Disk checks (transfer thread, about once a second)

    /// Fails with `lowDiskSpace` when free space is under the reserve (or under what the rest of the file needs).
    func checkFreeSpace(needed: Int64?) throws(DownloadError) {
        guard let free = directory.freeBytes() else { return }
        let reserve = request.options.diskReserve
        let rest = max(0, needed ?? 0)
        if free < reserve + rest {
            throw .lowDiskSpace(path: request.directory, freeBytes: free, neededBytes: rest, reserveBytes: reserve)
        }
    }

    /// Fails with `partFileRemoved` when the part file lost its last link (deleted, or its folder removed):
    /// writing on would fill a file nobody can reach.
    func checkPartFileLinked() throws(DownloadError) {
        guard let writer, writer.linkCount() == 0 else { return }
        throw .partFileRemoved(path: writer.path)
    }
}

/// The part files this engine's transfers hold, so a new transfer never takes over a sibling's empty part file.
///
/// Owned and used by the transfer thread only.
final class PartRegistry {
    var paths: Set<String> = []
}
