import Testing
@testable import HaulCore

@Suite struct SegmentLedgerTests {
    static let kib: Int64 = 1024
    static let mib: Int64 = 1024 * 1024
    let kib = Self.kib
    let mib = Self.mib

    // MARK: plan

    @Test func eightConnectionsGetEqualAlignedRanges() {
        var ledger = SegmentLedger(total: 100 * mib + 12_345)
        let leases = ledger.plan(connections: 8, minSplit: 1 * mib)
        #expect(leases.count == 8)
        #expect(leases.first?.range.lowerBound == 0)
        #expect(leases.last?.range.upperBound == ledger.total)
        for (a, b) in zip(leases, leases.dropFirst()) {
            #expect(a.range.upperBound == b.range.lowerBound)
            #expect(a.range.upperBound % SegmentLedger.defaultAlignment == 0)
        }
        let ideal = Double(ledger.total) / 8
        for lease in leases {
            #expect(abs(Double(lease.range.count) - ideal) <= Double(SegmentLedger.defaultAlignment))
        }
        #expect(Set(leases.map(\.id)).count == 8)
        #expect(leases.map(\.id) == leases.map(\.id).sorted(), "ids follow file order")
        #expect(ledger.activeLeases.count == 8)
    }

    @Test func aFileBelowTwiceTheMinimumSplitGetsOneConnection() {
        var small = SegmentLedger(total: 8 * mib - 1)
        #expect(small.plan(connections: 8, minSplit: 4 * mib).map(\.range) == [0..<(8 * mib - 1)])
        var twice = SegmentLedger(total: 8 * mib)
        #expect(twice.plan(connections: 8, minSplit: 4 * mib).map(\.range) == [0..<(4 * mib), (4 * mib)..<(8 * mib)])
    }

    @Test func fewerConnectionsWhenTheFileIsShort() {
        var ledger = SegmentLedger(total: 10 * mib)
        let leases = ledger.plan(connections: 8, minSplit: 3 * mib)
        #expect(leases.count == 3)
        #expect(leases.allSatisfy { $0.range.count >= 3 * mib })
    }

    @Test func planOnARestoredFileSharesTheFreeRangesByTheirSize() throws {
        // 0..<60 MiB and 62..<100 MiB free, 60..<62 MiB done.
        let rows = [SegmentRecord(start: 60 * mib, end: 62 * mib, committed: 2 * mib)]
        var ledger = try #require(SegmentLedger(total: 100 * mib, segments: rows))
        let leases = ledger.plan(connections: 4, minSplit: 1 * mib)
        #expect(leases.map(\.range) == [0..<(30 * mib), (30 * mib)..<(60 * mib), (62 * mib)..<(81 * mib), (81 * mib)..<(100 * mib)])
    }

    @Test func anEmptyFileIsCompleteAndPlansNothing() {
        var ledger = SegmentLedger(total: 0)
        #expect(ledger.isComplete)
        #expect(ledger.plan(connections: 4, minSplit: mib).isEmpty)
        #expect(ledger.leaseNext(minSplit: mib) == nil)
        #expect(ledger.records.isEmpty)
        #expect(ledger.map.cells(width: 3) == [.done, .done, .done])
    }

    // MARK: leaseNext

    @Test func anIdleConnectionTakesAFreeRangeFirst() {
        var ledger = SegmentLedger(total: 16 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.received(leases[0].id, bytes: 3 * mib)
        ledger.release(leases[0].id)
        let grant = ledger.leaseNext(minSplit: mib)
        #expect(grant?.lease.range == (3 * mib)..<(8 * mib))
        #expect(grant?.shrunk == nil)
    }

    @Test func halvingTakesTheLargerHalfOfTheLeaseWithMostLeft() throws {
        var ledger = SegmentLedger(total: 64 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.received(leases[0].id, bytes: 30 * mib)
        ledger.received(leases[1].id, bytes: 10 * mib + 5)
        let granted = ledger.leaseNext(minSplit: mib)
        let grant = try #require(granted)
        // Lease 2 has 22 MiB - 5 left from 42 MiB + 5: the cut at 53 MiB + 2 rounds down to 53 MiB.
        #expect(grant.shrunk == SegmentGrant.Shrink(lease: leases[1].id, newEnd: 53 * mib))
        #expect(grant.lease.range == (53 * mib)..<(64 * mib))
        #expect(ledger.status(of: leases[1].id)?.range == (32 * mib)..<(53 * mib))
        #expect(ledger.status(of: leases[1].id)?.received == 10 * mib + 5)
    }

    @Test func halvingPrefersTheLeaseThatWouldFinishLast() throws {
        var ledger = SegmentLedger(total: 64 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.received(leases[1].id, bytes: 16 * mib)
        // Lease 1 has 32 MiB left at 8 MiB/s (4 s); lease 2 has 16 MiB left at 1 MiB/s (16 s).
        let speeds = [leases[0].id: 8.0 * Double(mib), leases[1].id: 1.0 * Double(mib)]
        let granted = ledger.leaseNext(minSplit: mib, speeds: speeds, newSpeed: 1.0 * Double(mib))
        let grant = try #require(granted)
        #expect(grant.shrunk?.lease == leases[1].id)
        #expect(grant.lease.range == (56 * mib)..<(64 * mib))
    }

    @Test func aLeaseWithoutASpeedRunsAtTheMedianAndAStalledOneNeverFinishes() {
        var ledger = SegmentLedger(total: 96 * mib)
        let leases = ledger.plan(connections: 3, minSplit: mib)
        ledger.received(leases[0].id, bytes: 16 * mib)
        ledger.received(leases[1].id, bytes: 8 * mib)
        ledger.received(leases[2].id, bytes: 24 * mib)
        // Left: 16, 24 and 8 MiB. Lease 3 has no speed, so it runs at the median 2 MiB/s: 4 s.
        // Lease 1 at 1 MiB/s needs 16 s, lease 2 at 3 MiB/s 8 s: lease 1 finishes last.
        var unknown = ledger
        let median = unknown.leaseNext(
            minSplit: mib, speeds: [leases[0].id: 1.0 * Double(mib), leases[1].id: 3.0 * Double(mib)])
        #expect(median?.shrunk?.lease == leases[0].id)
        // A speed of 0 (stalled) finishes never, however little is left.
        var stalled = ledger
        let never = stalled.leaseNext(
            minSplit: mib, speeds: [leases[0].id: 1.0 * Double(mib), leases[1].id: 3.0 * Double(mib), leases[2].id: 0])
        #expect(never?.shrunk?.lease == leases[2].id)
        // Without speeds the most bytes left decides.
        #expect(ledger.leaseNext(minSplit: mib)?.shrunk?.lease == leases[1].id)
    }

    @Test func noNewLeaseBelowTheMinimumSplit() {
        var ledger = SegmentLedger(total: 16 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.received(leases[0].id, bytes: 7 * mib + 1)
        ledger.received(leases[1].id, bytes: 7 * mib + 1)
        // Each has 1 MiB - 1 left: the new lease would be below 1 MiB.
        #expect(ledger.leaseNext(minSplit: mib) == nil)
        #expect(ledger.leaseNext(minSplit: 256 * kib)?.lease.range == (7 * mib + 512 * kib)..<(8 * mib))
    }

    @Test func noRunningLeaseShrinksBelowTheMinimumSplit() {
        var ledger = SegmentLedger(total: 3 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 3 * mib)[0]
        // Halving a fresh 3 MiB lease would leave it 1.5 MiB.
        #expect(ledger.leaseNext(minSplit: 2 * mib) == nil)
        ledger.received(lease.id, bytes: 1 * mib)
        #expect(ledger.leaseNext(minSplit: 2 * mib) == nil)
        #expect(ledger.leaseNext(minSplit: mib)?.shrunk == SegmentGrant.Shrink(lease: lease.id, newEnd: 2 * mib))
    }

    @Test func aSlowLeaseGivesUpMoreThanHalf() throws {
        var ledger = SegmentLedger(total: 24 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.received(leases[0].id, bytes: 12 * mib)
        ledger.commit(leases[0].id, durableUpTo: 12 * mib)
        ledger.release(leases[0].id)
        ledger.received(leases[1].id, bytes: 2 * mib)
        // Lease 2 runs at 1 MiB/s with 10 MiB left; the idle connection did 4 MiB/s: it takes 4/5 of them.
        let speeds = [leases[1].id: 1.0 * Double(mib)]
        var weighted = ledger
        let granted = weighted.leaseNext(minSplit: mib, speeds: speeds, newSpeed: 4.0 * Double(mib))
        let grant = try #require(granted)
        #expect(grant.lease.range == (16 * mib)..<(24 * mib))
        // A running lease faster than the idle connection still gives up half, never less.
        var halved = ledger
        let even = halved.leaseNext(minSplit: mib, speeds: speeds, newSpeed: 0.5 * Double(mib))
        #expect(even?.lease.range == (19 * mib)..<(24 * mib))
        // A stalled lease gives up everything after its next aligned block.
        var stalled = ledger
        stalled.received(leases[1].id, bytes: 5)
        let rescue = stalled.leaseNext(minSplit: mib, speeds: [leases[1].id: 0], newSpeed: 4.0 * Double(mib))
        #expect(rescue?.lease.range == (14 * mib + SegmentLedger.defaultAlignment)..<(24 * mib))
    }

    @Test func halvingLeavesReleasedLeasesAlone() {
        var ledger = SegmentLedger(total: 16 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 16 * mib)[0]
        ledger.received(lease.id, bytes: 10 * mib)
        ledger.release(lease.id)
        let grant = ledger.leaseNext(minSplit: mib)
        #expect(grant?.shrunk == nil)
        #expect(grant?.lease.range == (10 * mib)..<(16 * mib))
        #expect(ledger.leaseNext(minSplit: mib)?.shrunk?.lease != lease.id)
    }

    // MARK: received, commit, release, abandon

    @Test func receivedStopsAtTheLeaseEndAfterAShrink() throws {
        var ledger = SegmentLedger(total: 32 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 32 * mib)[0]
        let granted = ledger.leaseNext(minSplit: mib)
        let grant = try #require(granted)
        #expect(grant.shrunk?.newEnd == 16 * mib)
        #expect(ledger.received(lease.id, bytes: 15 * mib) == 15 * mib)
        #expect(ledger.received(lease.id, bytes: 2 * mib) == 1 * mib)
        #expect(ledger.received(lease.id, bytes: 1) == 0)
        #expect(ledger.received(SegmentLease.ID(999), bytes: 1) == 0)
    }

    @Test func anUntouchedNewLeaseGoesBackToTheLeaseItWasCutFrom() throws {
        var ledger = SegmentLedger(total: 32 * mib)
        let lease = ledger.plan(connections: 1, minSplit: 32 * mib)[0]
        ledger.received(lease.id, bytes: 2 * mib)
        let granted = ledger.leaseNext(minSplit: mib)
        let grant = try #require(granted)
        #expect(ledger.lease(before: grant.lease.id) == lease.id)
        // Its request was refused: released, its range is free, and the lease it was cut from takes it back.
        ledger.release(grant.lease.id)
        let end = ledger.absorbFree(after: lease.id, upTo: 32 * mib)
        #expect(end == 32 * mib)
        #expect(ledger.status(of: lease.id)?.range == 0..<(32 * mib))
        #expect(ledger.status(of: lease.id)?.received == 2 * mib)
        let accepted = ledger.received(lease.id, bytes: 30 * mib)
        #expect(accepted == 30 * mib)
    }

    @Test func aLeaseTakesFreeBytesOnlyUpToWhatItsRequestAsksAndOnlyWhileItRuns() {
        var ledger = SegmentLedger(total: 32 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        ledger.release(leases[1].id)
        let part = ledger.absorbFree(after: leases[0].id, upTo: 20 * mib)
        #expect(part == 20 * mib)
        #expect(ledger.status(of: leases[0].id)?.range == 0..<(20 * mib))
        // Nothing free right after a lease that reaches the end, nor after a released one.
        let none = ledger.absorbFree(after: leases[1].id, upTo: 32 * mib)
        #expect(none == nil)
        ledger.release(leases[0].id)
        let released = ledger.absorbFree(after: leases[0].id, upTo: 32 * mib)
        #expect(released == nil)
    }

    @Test func commitNeverPassesReceivedNorMovesBack() {
        var ledger = SegmentLedger(total: 8 * mib)
        let lease = ledger.plan(connections: 1, minSplit: mib)[0]
        ledger.received(lease.id, bytes: 1000)
        ledger.commit(lease.id, durableUpTo: 5000)
        #expect(ledger.committedBytes == 1000)
        ledger.commit(lease.id, durableUpTo: 10)
        #expect(ledger.committedBytes == 1000)
        #expect(ledger.status(of: lease.id)?.committed == 1000)
    }

    @Test func aReleasedLeaseKeepsItsReceivedBytesUntilTheyAreCommitted() {
        var ledger = SegmentLedger(total: 8 * mib)
        let lease = ledger.plan(connections: 1, minSplit: mib)[0]
        ledger.received(lease.id, bytes: 3000)
        ledger.commit(lease.id, durableUpTo: 1000)
        ledger.release(lease.id)
        #expect(ledger.status(of: lease.id) == SegmentLeaseStatus(
            id: lease.id, range: 0..<3000, received: 3000, committed: 1000, isConnected: false))
        #expect(ledger.received(lease.id, bytes: 10) == 0)
        #expect(ledger.records == [SegmentRecord(start: 0, end: 3000, committed: 1000)])
        // The unreceived tail is free again and goes to the next idle connection.
        #expect(ledger.leaseNext(minSplit: mib)?.lease.range == 3000..<(8 * mib))
        ledger.commit(lease.id, durableUpTo: 3000)
        #expect(ledger.status(of: lease.id) == nil)
        #expect(ledger.records == [SegmentRecord(start: 0, end: 3000, committed: 3000)])
    }

    @Test func abandonFreesTheUncommittedBytes() {
        var ledger = SegmentLedger(total: 8 * mib)
        let lease = ledger.plan(connections: 1, minSplit: mib)[0]
        ledger.received(lease.id, bytes: 3000)
        ledger.commit(lease.id, durableUpTo: 1000)
        ledger.release(lease.id)
        ledger.abandon(lease.id)
        #expect(ledger.status(of: lease.id) == nil)
        #expect(ledger.committedBytes == 1000)
        #expect(ledger.receivedBytes == 1000)
        #expect(ledger.leaseNext(minSplit: mib)?.lease.range == 1000..<(8 * mib))
    }

    @Test func theFileIsCompleteOnceEveryByteIsCommitted() {
        var ledger = SegmentLedger(total: 4 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        for lease in leases {
            ledger.received(lease.id, bytes: Int64(lease.range.count))
            ledger.release(lease.id)
        }
        #expect(!ledger.isComplete)
        #expect(ledger.receivedBytes == 4 * mib)
        ledger.commit(leases[0].id, durableUpTo: 2 * mib)
        ledger.commit(leases[1].id, durableUpTo: 4 * mib)
        #expect(ledger.isComplete)
        #expect(ledger.records == [SegmentRecord(start: 0, end: 4 * mib, committed: 4 * mib)])
    }

    // MARK: records and restore

    @Test func recordsMergeDoneRangesAndSkipRangesWithNothingCommitted() {
        var ledger = SegmentLedger(total: 40 * mib)
        let leases = ledger.plan(connections: 4, minSplit: mib)
        for lease in leases.prefix(2) {
            ledger.received(lease.id, bytes: Int64(lease.range.count))
            ledger.commit(lease.id, durableUpTo: lease.range.upperBound)
            ledger.release(lease.id)
        }
        ledger.received(leases[2].id, bytes: 7)
        ledger.commit(leases[2].id, durableUpTo: 20 * mib + 5)
        ledger.received(leases[3].id, bytes: 7)
        #expect(ledger.records == [SegmentRecord(start: 0, end: 30 * mib, committed: 20 * mib + 5)])
    }

    @Test func restoringCountsCommittedBytesAndLeasesNothing() throws {
        let rows = [
            SegmentRecord(start: 50, end: 100, committed: 10),
            SegmentRecord(start: 0, end: 20, committed: 20),
        ]
        var ledger = try #require(SegmentLedger(total: 200, segments: rows))
        #expect(ledger.committedBytes == 30)
        #expect(ledger.activeLeases.isEmpty)
        #expect(ledger.records == [
            SegmentRecord(start: 0, end: 20, committed: 20), SegmentRecord(start: 50, end: 60, committed: 10),
        ])
        #expect(ledger.leaseNext(minSplit: 1, alignment: 1)?.lease.range == 20..<50)
        #expect(ledger.leaseNext(minSplit: 1, alignment: 1)?.lease.range == 60..<200)
    }

    @Test func restoringRefusesRowsThatCannotDescribeTheFile() {
        #expect(SegmentLedger(total: 100, segments: [.init(start: 0, end: 60, committed: 0), .init(start: 50, end: 70, committed: 0)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [.init(start: 90, end: 101, committed: 1)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [.init(start: 10, end: 10, committed: 0)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [.init(start: 10, end: 20, committed: 11)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [.init(start: -1, end: 20, committed: 0)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [.init(start: 10, end: 20, committed: -1)]) == nil)
        #expect(SegmentLedger(total: 100, segments: [])?.committedBytes == 0)
    }

    // MARK: map

    @Test func theMapShowsDoneInFlightAndWaiting() {
        var ledger = SegmentLedger(total: 100)
        let leases = ledger.plan(connections: 2, minSplit: 10, alignment: 10)
        ledger.received(leases[0].id, bytes: 30)
        ledger.release(leases[1].id)
        // 0..<30 received, 30..<50 in flight, 50..<100 free.
        #expect(ledger.map.cells(width: 10) == [.done, .done, .done, .inFlight, .inFlight] + Array(repeating: .waiting, count: 5))
        // A cell holding done and in-flight bytes is in flight; done and waiting is done from half on.
        #expect(ledger.map.cells(width: 4) == [.done, .inFlight, .waiting, .waiting])
        #expect(ledger.map.cells(width: 0) == [])
        #expect(ledger.map.cells(width: 300).count == 300)
    }

    @Test func aMapMergesAlikeNeighboursAndDropsEmptySpans() {
        let map = SegmentMap(total: 100, spans: [
            .init(range: 0..<10, cell: .done), .init(range: 10..<10, cell: .waiting), .init(range: 10..<30, cell: .done),
            .init(range: 30..<60, cell: .inFlight), .init(range: 60..<100, cell: .waiting),
        ])
        #expect(map.spans == [.init(range: 0..<30, cell: .done), .init(range: 30..<60, cell: .inFlight), .init(range: 60..<100, cell: .waiting)])
    }

    @Test func aCellIsDoneWhenAtLeastHalfOfItArrived() {
        let map = SegmentMap(total: 100, spans: [
            .init(range: 0..<15, cell: .done), .init(range: 15..<60, cell: .waiting), .init(range: 60..<64, cell: .done),
            .init(range: 64..<100, cell: .waiting),
        ])
        // Cells of 10 bytes: 0-10 done, 10-20 half done, 60-70 four tenths done.
        #expect(map.cells(width: 10) == [.done, .done, .waiting, .waiting, .waiting, .waiting, .waiting, .waiting, .waiting, .waiting])
        // A file larger than Int64.max / width still maps without overflow.
        let huge = SegmentMap(total: Int64.max - 1, spans: [.init(range: 0..<(Int64.max - 1), cell: .done)])
        #expect(huge.cells(width: 300).allSatisfy { $0 == .done })
    }
}
