import HaulCore
import Testing
@testable import HaulTransfer

/// Which connections a segmented download opens, cuts, replaces or sheds, decided without a network.
struct ConnectionPlannerTests {
    let mib: Int64 = 1 << 20

    /// A 64 MiB file planned over `count` connections, each running and known.
    func running(_ count: Int, ledger: inout SegmentLedger, speed: Double = 0) -> [ConnectionPlanner.Running] {
        ledger.plan(connections: count, minSplit: 4 * mib).map { lease in
            ConnectionPlanner.Running(
                lease: lease.id, speed: speed, receivingSeconds: speed > 0 ? 2 : 0,
                remaining: lease.range.upperBound - lease.range.lowerBound)
        }
    }

    @Test func everyByteInAndNoConnectionLeftCompletes() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 8 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 4 * mib)[0]
        _ = ledger.received(lease.id, bytes: 8 * mib)
        ledger.release(lease.id)
        let (steps, conclusion) = planner.feed(&ledger, running: [], hostRoom: 8)
        #expect(steps.isEmpty)
        #expect(conclusion == .complete)
    }

    @Test func idleRoomIsFilledByCuttingRunningRanges() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(2, ledger: &ledger)
        let (steps, conclusion) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(conclusion == nil)
        let opened = steps.filter { if case .open = $0 { true } else { false } }
        let cuts = steps.filter { if case .cut = $0 { true } else { false } }
        #expect(opened.count == 2)
        #expect(cuts.count == 2)
    }

    @Test func aFullHostOpensNothingExtra() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(2, ledger: &ledger)
        let (steps, _) = planner.feed(&ledger, running: running, hostRoom: 0)
        #expect(steps.isEmpty)
    }

    @Test func theLastConnectionIsAlwaysReplaced() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 4 * mib)[0]
        ledger.release(lease.id)
        for _ in 0..<ConnectionPlanner.maxRangeFailures { planner.rangeFailed(.network(code: 7, message: "", host: "h"), now: .now, othersRunning: false) }
        let (steps, conclusion) = planner.feed(&ledger, running: [], hostRoom: 0)
        #expect(conclusion == nil)
        #expect(steps.count == 1)
    }

    @Test func aServerThatKeepsRefusingEndsTheAttempt() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let error = DownloadError.network(code: 7, message: "refused", host: "h")
        for _ in 0..<(2 * ConnectionPlanner.maxRangeFailures) { planner.rangeFailed(error, now: .now, othersRunning: false) }
        let (_, conclusion) = planner.feed(&ledger, running: [], hostRoom: 8)
        #expect(conclusion == .failed(error))
    }

    @Test func retryAfterHoldsExtrasBackUntilItsTime() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(1, ledger: &ledger)
        let now = ContinuousClock.now
        planner.rangeFailed(.httpStatus(code: 503, reason: nil, host: "h", retryAfter: 2), now: now, othersRunning: true)
        let (held, _) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(held.isEmpty)
        let early = planner.endHold(now: now + .seconds(1))
        #expect(!early)
        let onTime = planner.endHold(now: now + .seconds(2))
        #expect(onTime)
        let (after, _) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(!after.isEmpty)
    }

    @Test func noReplacementsUnderALimit() {
        var planner = ConnectionPlanner(split: 4)
        let fast = ConnectionPlanner.Running(lease: nil, speed: 10e6, receivingSeconds: 30, remaining: 64 * mib)
        let slow = ConnectionPlanner.Running(lease: nil, speed: 1e5, receivingSeconds: 30, remaining: 64 * mib)
        #expect(planner.slowConnections(among: [fast, fast, fast, slow], limited: true).isEmpty)
        let victims = planner.slowConnections(among: [fast, fast, fast, slow], limited: false)
        #expect(victims == [3])
        // The replacement asks for a new TCP connection, once.
        let fresh = (planner.takeFresh(), planner.takeFresh())
        #expect(fresh == (true, false))
    }

    @Test func sheddingGivesUpTheLongestRangeNeverTheLast() {
        let short = ConnectionPlanner.Running(lease: nil, remaining: mib)
        let long = ConnectionPlanner.Running(lease: nil, remaining: 9 * mib)
        #expect(ConnectionPlanner.shedding(among: [short, long, short]) == 1)
        #expect(ConnectionPlanner.shedding(among: [long]) == nil)
    }

    @Test func aRunningRangeIsCutInTheMiddleOfItsRequest() {
        var planner = ConnectionPlanner(split: 2)
        var ledger = SegmentLedger(total: 64 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 4 * mib)[0]
        // One request asks for the whole range; the new connection takes half and the running one stops there.
        let running = ConnectionPlanner.Running(lease: lease.id, remaining: 64 * mib)
        let (steps, _) = planner.feed(&ledger, running: [running], hostRoom: 8)
        #expect(steps.contains(.cut(lease.id, newEnd: 32 * mib)))
    }

    @Test func aBusyRefusalHoldsBackOneConnectionWhileTheOthersGoOn() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let leases = ledger.plan(connections: 3, minSplit: 4 * mib)
        let now = ContinuousClock.now
        planner.rangeFailed(.httpStatus(code: 503, reason: nil, host: "h", retryAfter: nil), now: now, othersRunning: true)
        let running = leases.map { ConnectionPlanner.Running(lease: $0.id, remaining: 20 * mib) }
        // Three run, one waits: nothing opens, nothing ends.
        let (held, heldEnding) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(held.isEmpty)
        #expect(heldEnding == nil)
        // Its back-off over, the fourth connection comes back.
        let ended = planner.endHold(now: now + .seconds(1))
        #expect(ended)
        let (steps, _) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(steps.count(where: { if case .open = $0 { true } else { false } }) == 1)
    }

    @Test func busyRefusalsAreNotFailuresOfTheLink() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(1, ledger: &ledger)
        let now = ContinuousClock.now
        for _ in 0..<(2 * ConnectionPlanner.maxRangeFailures) {
            planner.rangeFailed(.httpStatus(code: 429, reason: nil, host: "h", retryAfter: 2), now: now, othersRunning: true)
        }
        // They wait while the one connection goes on; none is added meanwhile.
        let (steps, ending) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(steps.isEmpty)
        #expect(ending == nil)
        let early = planner.endHold(now: now + .seconds(1))
        #expect(!early)
        let over = planner.endHold(now: now + .seconds(2))
        #expect(over)
        #expect(planner.busyHolds.isEmpty)
        // Not counted as failures: every extra connection opens again.
        let (again, _) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(again.count(where: { if case .open = $0 { true } else { false } }) == 3)
    }

    @Test func aBusyRefusalWithNothingElseRunningCountsAsAFailure() {
        var planner = ConnectionPlanner(split: 2)
        planner.rangeFailed(.httpStatus(code: 503, reason: nil, host: "h", retryAfter: nil), now: .now, othersRunning: false)
        #expect(planner.busyHolds.isEmpty)
        #expect(planner.lastRangeError == .httpStatus(code: 503, reason: nil, host: "h", retryAfter: nil))
    }

    @Test func aServerThatIsAlwaysBusyFailsTheLinkInTheEnd() {
        var planner = ConnectionPlanner(split: 1)
        let refusal = DownloadError.httpStatus(code: 503, reason: nil, host: "h", retryAfter: nil)
        let now = ContinuousClock.now
        for _ in 0..<(ConnectionBackOff.maxStreak + 2 * ConnectionPlanner.maxRangeFailures) {
            planner.rangeFailed(refusal, now: now, othersRunning: true)
        }
        _ = planner.endHold(now: now + .seconds(3600))
        var ledger = SegmentLedger(total: 64 * mib)
        let (_, conclusion) = planner.feed(&ledger, running: [], hostRoom: 8)
        #expect(conclusion == .failed(refusal))
    }

    @Test func theBackOffGrowsAndHonoursRetryAfter() {
        #expect(ConnectionBackOff.wait(streak: 1, retryAfter: nil) == .milliseconds(500))
        #expect(ConnectionBackOff.wait(streak: 3, retryAfter: nil) == .seconds(2))
        #expect(ConnectionBackOff.wait(streak: 40, retryAfter: nil) == .seconds(30))
        #expect(ConnectionBackOff.wait(streak: 1, retryAfter: 7) == .seconds(7))
        #expect(ConnectionBackOff.wait(streak: 1, retryAfter: 1e12) == .seconds(3600))
    }
}

extension ConnectionPlannerTests {
    /// Several idle slots at once: a lease opened in this round may be cut again in the same round, and
    /// its connection must learn its new end (else two connections fetch the same bytes).
    @Test func aLeaseOpenedThisRoundCanBeCutThisRound() {
        var planner = ConnectionPlanner(split: 8)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(1, ledger: &ledger)
        let (steps, _) = planner.feed(&ledger, running: running, hostRoom: 8)
        var opened: Set<SegmentLease.ID> = []
        var cutAfterOpening = false
        for step in steps {
            switch step {
            case let .open(lease): opened.insert(lease.id)
            case let .cut(lease, _): if opened.contains(lease) { cutAfterOpening = true }
            }
        }
        #expect(cutAfterOpening)
        // Every byte is owned once: the leases after the steps tile the file.
        var ends: [SegmentLease.ID: Range<Int64>] = [:]
        for step in steps {
            switch step {
            case let .open(lease): ends[lease.id] = lease.range
            case let .cut(lease, newEnd): if let range = ends[lease] { ends[lease] = range.lowerBound..<newEnd }
            }
        }
        let covered = ends.values.reduce(Int64(0)) { $0 + ($1.upperBound - $1.lowerBound) }
        #expect(covered < 64 * mib)
    }
}

extension ConnectionPlannerTests {
    @Test func aRangeRefusedForGoodWhileOthersRunStopsNewRequestsOnTheLink() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let running = running(1, ledger: &ledger)
        planner.rangeFailed(.httpStatus(code: 410, reason: "Gone", host: "h", retryAfter: nil), now: .now, othersRunning: true)
        #expect(planner.refusesNewRequests)
        let (steps, ending) = planner.feed(&ledger, running: running, hostRoom: 8)
        #expect(steps.isEmpty)
        #expect(ending == nil)
        // The last connection is still replaced: its refusal then ends the attempt.
        let (last, _) = planner.feed(&ledger, running: [], hostRoom: 8)
        #expect(last.count(where: { if case .open = $0 { true } else { false } }) == 1)
    }
}
