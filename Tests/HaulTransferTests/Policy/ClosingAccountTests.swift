import HaulCore
import Testing
@testable import HaulTransfer

/// What a closing leaves on record of part files that did not complete, decided without a disk: never more than is
/// durable, the same for one stream and a stream of segments.
struct ClosingAccountTests {
    static let mib: Int64 = 1 << 20

    /// Two ranges of 2 MiB each, the second having received 1 MiB after its last commit and the first nothing.
    static func twoRanges() -> ClosingAccount {
        var ledger = SegmentLedger(total: 4 * mib)
        let leases = ledger.plan(connections: 2, minSplit: mib)
        _ = ledger.received(leases[1].id, bytes: mib)
        return ClosingAccount(held: 4 * mib, durable: 0, ledger: ledger, marks: [leases[1].id: 3 * mib])
    }

    @Test func oneStreamKeepsWhatItHeldOnceSyncedElseWhatWasDurableBefore() {
        let account = ClosingAccount(held: 900, durable: 600)
        #expect(account.recorded(.synced, error: nil) == (900, nil))
        #expect(account.recorded(.durableBefore, error: .diskFull(path: "/d/x.part")) == (600, nil))
        #expect(account.recorded(.nothing, error: .checksumMismatch(expected: "a", actual: "b")) == (0, nil))
        #expect(account.completedSegments == nil)
    }

    @Test func rangesCommitWhatTheSyncCoveredAndNothingWithoutIt() {
        let account = Self.twoRanges()
        #expect(account.recorded(.synced, error: nil).durable == Self.mib)
        #expect(account.recorded(.durableBefore, error: nil).durable == 0)
        #expect(account.recorded(.nothing, error: nil) == (0, []))
        #expect(account.completedSegments == [])
    }

    @Test func aServerThatIgnoresRangesKeepsOnlyTheDurableStartOfTheFile() {
        // The second range's megabyte is durable but not at the start: one stream cannot go on from it.
        let (durable, segments) = Self.twoRanges().recorded(.synced, error: .rangesIgnored(host: "h"))
        #expect(durable == 0 && segments == [])
    }
}
