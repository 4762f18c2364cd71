import Testing
@testable import HaulCore

/// When snapshots go out, on given instants (`SnapshotPacer`), without a controller or real time.
struct SnapshotPacerTests {
    let start = ContinuousClock.now

    @Test func aChangeGoesOutOnTheNextTickAndThenNothingUntilTheNextChange() {
        var pacer = SnapshotPacer(now: start)
        #expect(pacer.onTick(untold: false) == .full, "the first snapshot")
        pacer.published(at: start)
        #expect(pacer.onTick(untold: false) == .nothing)
        #expect(pacer.onTick(untold: true) == .full, "events go out with a snapshot")
        pacer.figuresDidChange()
        #expect(pacer.onTick(untold: false) == .patch, "only figures: the running rows are patched")
        pacer.rowsDidChange()
        #expect(pacer.onTick(untold: false) == .full)
    }

    @Test func theOnceASecondWorkIsDueOncePerSecond() {
        var pacer = SnapshotPacer(now: start)
        let due = [999, 1000, 1500, 2100].map { pacer.secondElapsed(at: start.advanced(by: .milliseconds($0))) }
        #expect(due == [false, true, false, true])
    }

    @Test func fastChangesWakeOnceAfterTheSpacing() {
        var pacer = SnapshotPacer(now: start)
        pacer.published(at: start)
        let soon = start.advanced(by: .milliseconds(5))
        let first = pacer.soon(at: soon)
        let second = pacer.soon(at: soon.advanced(by: .milliseconds(1)))
        #expect(first == .wake(start + SnapshotPacer.spacing))
        #expect(second == .waiting, "one wake for a burst")
        let fired = pacer.wakeFired(untold: false)
        #expect(fired, "the change is still to be shown")
        pacer.published(at: start + SnapshotPacer.spacing)
        let quiet = pacer.soon(at: start.advanced(by: .milliseconds(100)))
        #expect(quiet == .now, "a quiet queue publishes at once")
    }
}
