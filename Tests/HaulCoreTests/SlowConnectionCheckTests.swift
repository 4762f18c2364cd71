import Testing
import HaulCore

@Suite struct SlowConnectionCheckTests {
    static let mib = 1024.0 * 1024
    let mib = Self.mib

    func sample(_ id: Int, _ speed: Double, seconds: Double = 2, remaining: Int64 = 10 << 20) -> SlowConnectionCheck.Sample {
        .init(id: id, speed: speed, receivingSeconds: seconds, remaining: remaining)
    }

    @Test func halfTheConnectionsFourTimesSlowerAreReplacedSlowestFirst() {
        let samples = [sample(0, 4 * mib), sample(1, 1 * mib), sample(2, 4.1 * mib), sample(3, 0.9 * mib),
                       sample(4, 3.9 * mib), sample(5, 1.1 * mib), sample(6, 4 * mib), sample(7, 1 * mib)]
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 8) == [3, 1, 7, 5])
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 2) == [3, 1])
    }

    @Test func equalConnectionsWithNoiseKeepTheirConnections() {
        let samples = (0..<8).map { sample($0, (3.4 + 0.2 * Double($0)) * mib) }
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 8).isEmpty)
    }

    @Test func noAllowanceMeansNoReplacement() {
        let samples = [sample(0, 4 * mib), sample(1, 0.5 * mib)]
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 0).isEmpty)
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 1) == [1])
    }

    @Test func youngConnectionsAreNotJudgedNorUsedAsTheReference() {
        // The fast one is still ramping up: nothing to compare the slow one with.
        let young = [sample(0, 4 * mib, seconds: 0.5), sample(1, 1 * mib)]
        #expect(SlowConnectionCheck.replacements(among: young, allowance: 4).isEmpty)
        // A slow connection that just started is not judged yet.
        let starting = [sample(0, 4 * mib), sample(1, 4 * mib), sample(2, 0.1 * mib, seconds: 0.75)]
        #expect(SlowConnectionCheck.replacements(among: starting, allowance: 4).isEmpty)
    }

    @Test func aSlowConnectionNearItsEndIsLeftToFinish() {
        // 1 MiB left at 1 MiB/s: 1 s, against 0.25 s on a fast one; less than a new connection's worth.
        let samples = [sample(0, 4 * mib), sample(1, 4 * mib), sample(2, 1 * mib, remaining: 1 << 20)]
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 4).isEmpty)
        // 4 MiB left: 4 s against 1 s saves 3 s.
        let more = [sample(0, 4 * mib), sample(1, 4 * mib), sample(2, 1 * mib, remaining: 4 << 20)]
        #expect(SlowConnectionCheck.replacements(among: more, allowance: 4) == [2])
    }

    @Test func oneLuckyConnectionDoesNotMakeTheOthersSlow() {
        // The reference is the upper quartile: a single burst at 20 MiB/s does not condemn seven at 4 MiB/s.
        let samples = [sample(0, 20 * mib)] + (1..<8).map { sample($0, 4 * mib) }
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 8).isEmpty)
    }

    @Test func aStalledConnectionIsLeftToTheStallTimeout() {
        // Speed 0 has no rate to compare: the stall timeout and stealing deal with it.
        let samples = [sample(0, 4 * mib), sample(1, 4 * mib), sample(2, 0)]
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 4).isEmpty)
    }

    @Test func aFarServerGivesNewConnectionsLongerToReachFullSpeed() {
        // 1.5 s in, still ramping up through TCP's slow start on a 200 ms round trip: not judged before 2 s.
        let samples = [sample(0, 4 * mib, seconds: 5), sample(1, 4 * mib, seconds: 5), sample(2, 1 * mib, seconds: 1.5)]
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 4, settling: 2).isEmpty)
        #expect(SlowConnectionCheck.replacements(among: samples, allowance: 4) == [2])
        // Never less than the floor, however close the server.
        let early = [sample(0, 4 * mib), sample(1, 1 * mib, seconds: 0.5)]
        #expect(SlowConnectionCheck.replacements(among: early, allowance: 4, settling: 0.001).isEmpty)
    }
}
