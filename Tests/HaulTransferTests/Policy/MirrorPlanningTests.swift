import HaulCore
import Testing
@testable import HaulTransfer

/// How one link of a task with mirrors shares the work with the others (DESIGN §8), decided without a network.
struct MirrorPlanningTests {
    let mib: Int64 = 1 << 20

    func running(_ leases: [SegmentLease], speed: Double) -> [ConnectionPlanner.Running] {
        leases.map { lease in
            ConnectionPlanner.Running(
                lease: lease.id, speed: speed, receivingSeconds: 2, remaining: lease.range.upperBound - lease.range.lowerBound)
        }
    }

    @Test func aFastMirrorTakesTheLargerShareOfASlowMirrorsRange() throws {
        var planner = ConnectionPlanner(split: 1)
        var ledger = SegmentLedger(total: 64 * mib)
        let slow = ledger.plan(connections: 1, minSplit: 4 * mib)
        // Mirror B's connection finished its range at 3 MiB/s; mirror A's runs at 1 MiB/s.
        let (steps, conclusion) = planner.feed(
            &ledger, running: [], elsewhere: running(slow, speed: Double(mib)), hostRoom: 8, thiefSpeed: 3 * Double(mib))
        #expect(conclusion == nil)
        guard case let .cut(victim, newEnd) = try #require(steps.first), case let .open(stolen) = try #require(steps.last) else {
            Issue.record("expected a cut and an open: \(steps)")
            return
        }
        #expect(victim == slow[0].id)
        // Both finish together: the thief takes about three quarters.
        #expect(stolen.range.upperBound - stolen.range.lowerBound > 40 * mib, "\(stolen)")
        #expect(newEnd == stolen.range.lowerBound)
    }

    @Test func anIdleMirrorWithNothingToTakeWaitsWhileOthersRun() {
        var planner = ConnectionPlanner(split: 4)
        // The other link's one range is too small to halve: nothing left to take.
        var ledger = SegmentLedger(total: 400 << 10)
        let leases = ledger.plan(connections: 1, minSplit: 8 * mib)
        let others = running(leases, speed: Double(mib))
        let (steps, conclusion) = planner.feed(&ledger, running: [], elsewhere: others, hostRoom: 8)
        #expect(steps.isEmpty)
        #expect(conclusion == nil)
    }

    @Test func aMirrorThatKeepsFailingFailsForGoodWhileOthersRun() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let others = ledger.plan(connections: 2, minSplit: 4 * mib)
        for _ in 0..<(2 * ConnectionPlanner.maxRangeFailures) {
            planner.rangeFailed(.network(code: 7, message: "refused", host: "b"), now: .now, othersRunning: false)
        }
        let (steps, conclusion) = planner.feed(&ledger, running: [], elsewhere: running(others, speed: Double(mib)), hostRoom: 8)
        #expect(steps.isEmpty)
        #expect(conclusion == .failed(.network(code: 7, message: "refused", host: "b")))
    }

    @Test func theFileIsCompleteOnlyOnceNoLinkHasAConnection() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 8 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 8 * mib)[0]
        _ = ledger.received(lease.id, bytes: 8 * mib)
        let still = running([lease], speed: 1)
        #expect(planner.feed(&ledger, running: [], elsewhere: still, hostRoom: 8).conclusion == nil)
        ledger.release(lease.id)
        #expect(planner.feed(&ledger, running: [], elsewhere: [], hostRoom: 8).conclusion == .complete)
    }

    @Test func aMirrorOnAFullHostWaitsWhileOthersRunButALinkAloneAlwaysGetsOne() {
        var planner = ConnectionPlanner(split: 4)
        var ledger = SegmentLedger(total: 64 * mib)
        let others = ledger.plan(connections: 2, minSplit: 4 * mib)
        let (steps, conclusion) = planner.feed(&ledger, running: [], elsewhere: running(others, speed: Double(mib)), hostRoom: 0)
        #expect(steps.isEmpty && conclusion == nil)
        for lease in others { ledger.release(lease.id) }
        let (alone, _) = planner.feed(&ledger, running: [], elsewhere: [], hostRoom: 0)
        #expect(alone.count == 1)
    }

    @Test func aMirrorThatHasNotAnsweredGetsOneConnection() {
        var planner = ConnectionPlanner(split: 8)
        var ledger = SegmentLedger(total: 64 * mib)
        let (steps, _) = planner.feed(&ledger, running: [], hostRoom: 8, cap: 1)
        #expect(steps.count == 1)
        let (more, _) = planner.feed(&ledger, running: running([ledger.activeLeases[0]].map {
            SegmentLease(id: $0.id, range: $0.range)
        }, speed: 0), hostRoom: 8, cap: 1)
        #expect(more.isEmpty)
    }
}
