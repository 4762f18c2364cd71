import Testing
@testable import HaulCore

/// When snapshots go out, on given instants (`SnapshotPacer`), without a controller or real time.
struct SnapshotPacerTests {
    let start = ContinuousClock.now

    @Test func aChangeGoesOutOnTheNextTickAndThenNothingUntilTheNextChange() {
        var pacer = SnapshotPacer(now: start)
        #expect(pacer.onTick(untold: false, at: start) == .full, "the first snapshot")
        pacer.published(at: start)
        let tick = start + .milliseconds(200)
        #expect(pacer.onTick(untold: false, at: tick) == .nothing)
        #expect(pacer.onTick(untold: true, at: tick) == .full, "events go out with a snapshot")
        pacer.figuresDidChange()
        #expect(pacer.onTick(untold: false, at: tick) == .patch, "only figures: the running rows are patched")
        pacer.rowsDidChange()
        #expect(pacer.onTick(untold: false, at: tick) == .full)
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

    @Test func aCostlySnapshotWaitsInProportionToItsCostWithinASecond() {
        var pacer = SnapshotPacer(now: start)
        // 10 ms to build (a long queue): the next whole one waits 20 × that, so building takes 1/20 of the time.
        pacer.published(at: start, cost: .milliseconds(10))
        #expect(pacer.currentSpacing == .milliseconds(200))
        pacer.rowsDidChange()
        #expect(pacer.onTick(untold: true, at: start + .milliseconds(199)) == .nothing, "not due yet")
        #expect(pacer.onTick(untold: true, at: start + .milliseconds(200)) == .full)
        #expect(pacer.soon(at: start + .milliseconds(50)) == .wake(start + .milliseconds(200)))
        // A patch costs the running rows only and leaves the spacing as it was.
        pacer.published(at: start + .milliseconds(200))
        #expect(pacer.currentSpacing == .milliseconds(200))
        pacer.published(at: start, cost: .milliseconds(500))
        #expect(pacer.currentSpacing == SnapshotPacer.longestSpacing, "a change is seen within a second")
        pacer.published(at: start, cost: .microseconds(100))
        #expect(pacer.currentSpacing == SnapshotPacer.spacing, "a short queue sees changes at once")
    }
}
