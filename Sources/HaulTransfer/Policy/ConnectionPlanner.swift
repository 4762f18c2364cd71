import HaulCore

/// Which connections a segmented download opens, cuts, replaces or sheds (DESIGN §7). A value: the
/// transfer hands it the ledger and what its connections are doing, and applies the steps it returns.
struct ConnectionPlanner {
    /// What one open connection is doing, as the planner sees it.
    struct Running: Equatable {
        var lease: SegmentLease.ID?
        var isOpen = true
        /// Smoothed bytes per second.
        var speed: Double = 0
        var receivingSeconds: Double = 0
        /// Bytes of its range still to fetch.
        var remaining: Int64 = 0
        /// Whether its range may be cut now: it has its answer, and the last range cut from it has its own.
        var cuttable = true
    }

    enum Step: Equatable {
        /// Open a connection for this lease.
        case open(SegmentLease)
        /// The connection on this lease must stop at `newEnd` (a new lease took the rest).
        case cut(SegmentLease.ID, newEnd: Int64)
    }

    /// Extra connections that may fail before no more are opened.
    static let maxRangeFailures = 3

    /// Connections the task may use now (`-s`, changed live).
    private(set) var target: Int
    private var rangeFailures = 0
    private(set) var lastRangeError: DownloadError?
    /// A refused range asked to come back later (`Retry-After`): no extra connection opens before then.
    private(set) var heldUntil: ContinuousClock.Instant?
    /// Connections the server said it was too busy for (503, 429), each waiting until its instant: the others
    /// go on, and each comes back when its wait is over (`ConnectionBackOff`).
    private(set) var busyHolds: [ContinuousClock.Instant] = []
    /// A range was refused for good (403, 404, 410: the link is no longer good for new requests, as a signed link
    /// that expired) while others ran: no request is made on this link again this attempt but to replace the last.
    private(set) var refusesNewRequests = false
    /// Busy refusals since a connection last finished its range: how long the next one waits.
    private var busyStreak = 0
    /// While connections wait for a busy server: the connections (running and waiting) there were when the
    /// first was refused. No more are added before every wait is over; a running one that finishes its range
    /// takes the next.
    private var busyCeiling: Int?
    /// Waits after which extra connections start afresh; past them refusals count as failures for good.
    private var holdsLeft = 3
    /// Replacements of slow connections left: every connection may be replaced twice, never an endless
    /// churn on a server whose every connection is slow.
    private var replacementsLeft: Int
    /// Fresh connections owed for slow ones closed.
    private var freshOwed = 0
    /// The longest TCP handshake of this attempt's connections, in seconds: about one round trip.
    private(set) var connectSeconds = 0.0

    init(split: Int) {
        target = max(1, split)
        replacementsLeft = 2 * max(1, split)
    }

    mutating func retarget(_ count: Int) { target = max(1, count) }

    /// A handshake took this long (0 on a reused connection, which says nothing).
    mutating func sawConnect(seconds: Double) { connectSeconds = max(connectSeconds, seconds) }

    /// Whether the next range connection should ask for a new TCP connection (it replaces a slow one).
    mutating func takeFresh() -> Bool {
        guard freshOwed > 0 else { return false }
        freshOwed -= 1
        return true
    }

    /// A range connection failed with `error`. While other connections of the task run, a busy server's refusal
    /// holds back that one connection (its `Retry-After`, else a growing back-off) and is not a failure of the
    /// link. Any other failure counts, and its `Retry-After` holds every extra connection back; so does a busy
    /// refusal when nothing else runs (then the attempt ends and the task's retry waits, as for one stream).
    mutating func rangeFailed(_ error: DownloadError, now: ContinuousClock.Instant, othersRunning: Bool) {
        if error.isBusyRefusal, othersRunning, busyStreak < ConnectionBackOff.maxStreak {
            busyStreak += 1
            busyHolds.append(now + ConnectionBackOff.wait(streak: busyStreak, retryAfter: error.retryAfter))
            lastRangeError = error
            return
        }
        if othersRunning, error.httpCode != nil, !error.isTransient { refusesNewRequests = true }
        rangeFailures += 1
        lastRangeError = error
        if let seconds = error.retryAfter, seconds > 0 {
            let until = now + .seconds(within: 3600, seconds)
            heldUntil = max(heldUntil ?? until, until)
        }
    }

    /// After a connection ended or room opened: the conclusion when every byte arrived or the server keeps
    /// refusing; else steps that open connections for free ranges or halves of the slowest ones, up to the
    /// target. `thiefSpeed` is the speed of a connection that just finished its range (likely reused).
    ///
    /// With mirrors each link has its planner: `running` are its own connections, `elsewhere` those on the
    /// task's other links, whose ranges it may halve too (work stealing crosses links). A `.failed` conclusion
    /// then says this link failed for good; a link with nothing left to take while others run just waits.
    /// `cap` holds the link below its target for now (a mirror that has not answered yet: one connection).
    mutating func feed(
        _ ledger: inout SegmentLedger, running: [Running], elsewhere: [Running] = [], hostRoom: Int,
        thiefSpeed: Double? = nil, cap: Int? = nil
    ) -> (steps: [Step], conclusion: TransferEnding?) {
        // A connection that finished its range: the server serves again.
        if thiefSpeed != nil { busyStreak = 0 }
        if ledger.receivedBytes >= ledger.total, running.isEmpty, elsewhere.isEmpty { return ([], .complete) }
        if rangeFailures >= 2 * Self.maxRangeFailures, running.isEmpty, let lastRangeError {
            return ([], .failed(lastRangeError))
        }
        var steps: [Step] = []
        var count = running.count
        var room = hostRoom
        let everyone = running + elsewhere
        let speeds = Self.speeds(of: everyone)
        let uncuttable = Set(everyone.filter { !$0.cuttable }.compactMap(\.lease))
        // The last connection is always replaced: the download goes on, and a refusal ends the attempt. A link
        // whose host is full, or which was asked to wait, waits while the task's other links run; so does a
        // connection the server was too busy for, and none is added until its wait is over.
        let waiting = busyHolds.count
        if waiting > 0, busyCeiling == nil { busyCeiling = count + waiting }
        let most = min(target, cap ?? target, busyCeiling ?? target)
        while count + waiting < most || count == 0, (rangeFailures < Self.maxRangeFailures && !refusesNewRequests) || count == 0,
              (count == 0 && elsewhere.isEmpty) || (room > 0 && heldUntil == nil) {
            guard let grant = ledger.leaseNext(
                minSplit: Self.stealingMinimum(speeds: speeds), speeds: speeds, newSpeed: thiefSpeed,
                uncuttable: uncuttable)
            else { break }
            // The lease cut may be one this loop opened: the cut applies to whichever connection holds it.
            if let shrunk = grant.shrunk { steps.append(.cut(shrunk.lease, newEnd: shrunk.newEnd)) }
            steps.append(.open(grant.lease))
            count += 1
            room -= 1
            if rangeFailures >= Self.maxRangeFailures { break }
        }
        if count > 0 || !elsewhere.isEmpty { return (steps, nil) }
        if ledger.receivedBytes >= ledger.total { return (steps, .complete) }
        return (steps, .failed(lastRangeError ?? .inconsistentTransfer("every connection ended before the file was complete")))
    }

    /// The wait a refused range asked for is over: extra connections may open again, with their failures
    /// forgotten (the server said when to come back), a few times per attempt. True when it ended now.
    /// A busy refusal's back-off that is over frees its connection too.
    mutating func endHold(now: ContinuousClock.Instant) -> Bool {
        let busy = busyHolds.count
        busyHolds.removeAll { $0 <= now }
        let busyEnded = busyHolds.count < busy
        if busyHolds.isEmpty { busyCeiling = nil }
        guard let until = heldUntil, until <= now else { return busyEnded }
        heldUntil = nil
        if holdsLeft > 0 {
            holdsLeft -= 1
            rangeFailures = 0
        }
        return true
    }

    /// Which receiving connections (indices into `receiving`) to close for staying far below the fast
    /// ones (`SlowConnectionCheck`); fresh connections take their ranges. None under a bandwidth limit,
    /// which paces the connections itself, nor while the server asked extra connections to wait.
    mutating func slowConnections(among receiving: [Running], limited: Bool) -> [Int] {
        guard replacementsLeft > 0, heldUntil == nil, !limited else { return [] }
        let samples = receiving.enumerated().map { index, connection in
            SlowConnectionCheck.Sample(
                id: index, speed: connection.speed, receivingSeconds: connection.receivingSeconds,
                remaining: connection.remaining)
        }
        // Ten round trips (a TCP handshake is one) let a new connection's slow start reach full speed.
        let victims = SlowConnectionCheck.replacements(
            among: samples, allowance: replacementsLeft, settling: 10 * connectSeconds)
        replacementsLeft -= victims.count
        freshOwed += victims.count
        return victims
    }

    /// The connection (index into `running`) to give up so another task can have the host: the one with
    /// the most left to fetch. Nil when only one runs.
    static func shedding(among running: [Running]) -> Int? {
        guard running.count > 1 else { return nil }
        return running.indices.max { running[$0].remaining < running[$1].remaining }
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
    static func speeds(of running: [Running]) -> [SegmentLease.ID: Double] {
        var speeds: [SegmentLease.ID: Double] = [:]
        for connection in running where connection.receivingSeconds >= 0.5 {
            if let lease = connection.lease { speeds[lease] = connection.speed }
        }
        return speeds
    }
}
