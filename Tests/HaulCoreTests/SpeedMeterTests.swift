import Testing
@testable import HaulCore

@Suite struct SpeedMeterTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64((seconds * 1000).rounded())) }

    /// Records a steady `rate` from `from` to `to` seconds, `perSecond` times a second, starting at `position`.
    func feed(_ meter: inout SpeedMeter, rate: Double, from: Double, to: Double, perSecond: Int = 4, position: Int64 = 0) {
        let steps = Int(((to - from) * Double(perSecond)).rounded())
        for step in 0...steps {
            let t = from + Double(step) / Double(perSecond)
            meter.record(position: position + Int64(rate * (t - from)), at: at(t))
        }
    }

    @Test func noSampleBeforeAnyRecord() {
        let meter = SpeedMeter()
        #expect(meter.bytesPerSecond(at: at(10)) == nil)
        #expect(meter.reading(at: at(10)) == .noSample)
    }

    @Test func noSampleInTheFirstSecond() {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 0.75)
        #expect(meter.reading(at: at(0.75)) == .noSample)
        #expect(meter.bytesPerSecond(at: at(0.75)) == nil)
    }

    @Test func noSampleWhileNoByteArrived() {
        var meter = SpeedMeter()
        meter.record(position: 500, at: at(0))
        meter.record(position: 500, at: at(1.5))
        #expect(meter.reading(at: at(2)) == .noSample)
        // Nothing at all for the stall threshold is a stall, not a missing sample.
        #expect(meter.reading(at: at(3)) == .stalled)
    }

    @Test(arguments: [1_000.0, 250_000.0, 12_582_912.0])
    func steadyRateWithinFivePercent(rate: Double) throws {
        var meter = SpeedMeter()
        feed(&meter, rate: rate, from: 0, to: 20, perSecond: 4)
        let measured = try #require(meter.bytesPerSecond(at: at(20)))
        #expect(abs(measured - rate) / rate < 0.05, "measured \(measured) for \(rate)")
        // Asking a little later, before the next record, gives the same figure.
        let later = try #require(meter.bytesPerSecond(at: at(20.2)))
        #expect(abs(later - rate) / rate < 0.05)
    }

    @Test func steadyRateAtEveryMomentAfterTheFirstSecond() throws {
        var meter = SpeedMeter()
        var t = 0.0
        while t <= 12 {
            meter.record(position: Int64(100_000 * t), at: at(t))
            if t >= 1 {
                let measured = try #require(meter.bytesPerSecond(at: at(t)), "t=\(t)")
                #expect(abs(measured - 100_000) / 100_000 < 0.05, "t=\(t): \(measured)")
            }
            t += 0.1
        }
    }

    @Test func averagesOverTheWindowNotThePerChunkRate() throws {
        var meter = SpeedMeter(window: .seconds(5))
        // One burst of 1 MB every second: a per-chunk rate would swing wildly.
        for second in 0...10 {
            meter.record(position: Int64(second) * 1_000_000, at: at(Double(second)))
            meter.record(position: Int64(second) * 1_000_000, at: at(Double(second) + 0.5))
        }
        // Half a second after a burst a per-chunk rate would say 2 MB/s or 0; the window says about 1 MB/s.
        let measured = try #require(meter.bytesPerSecond(at: at(10.5)))
        #expect((800_000...1_200_000).contains(measured), "\(measured)")
    }

    @Test func followsAChangeOfRateWithinTheWindow() throws {
        var meter = SpeedMeter(window: .seconds(5))
        feed(&meter, rate: 1_000_000, from: 0, to: 10)
        feed(&meter, rate: 100_000, from: 10, to: 20, position: 10_000_000)
        let measured = try #require(meter.bytesPerSecond(at: at(20)))
        #expect(abs(measured - 100_000) / 100_000 < 0.05, "\(measured)")
    }

    @Test func stallGivesNil() throws {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 5)
        #expect(meter.bytesPerSecond(at: at(5)) != nil)
        #expect(meter.bytesPerSecond(at: at(7.9)) != nil)
        #expect(meter.reading(at: at(8)) == .stalled)
        #expect(meter.bytesPerSecond(at: at(8)) == nil)
        #expect(meter.bytesPerSecond(at: at(60)) == nil)
    }

    @Test func recordsWithoutNewBytesDoNotHideAStall() {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 5)
        for tenth in 51...90 { meter.record(position: 5_000_000, at: at(Double(tenth) / 10)) }
        #expect(meter.reading(at: at(9)) == .stalled)
    }

    @Test func rateDecaysWhileRecordsStop() throws {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 10)
        let fresh = try #require(meter.bytesPerSecond(at: at(10.5)))
        let older = try #require(meter.bytesPerSecond(at: at(12.5)))
        #expect(older < fresh * 0.9)
    }

    @Test func resumesAfterAStall() throws {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 5)
        #expect(meter.reading(at: at(9)) == .stalled)
        feed(&meter, rate: 1_000_000, from: 9, to: 20, position: 5_000_000)
        let measured = try #require(meter.bytesPerSecond(at: at(20)))
        #expect(abs(measured - 1_000_000) / 1_000_000 < 0.05)
    }

    @Test func backwardsPositionIsARestart() {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 10)
        #expect(meter.bytesPerSecond(at: at(10)) != nil)
        meter.record(position: 0, at: at(10.25))
        #expect(meter.reading(at: at(10.25)) == .noSample)
        feed(&meter, rate: 50_000, from: 10.25, to: 13)
        let measured = meter.bytesPerSecond(at: at(13))
        #expect(measured.map { abs($0 - 50_000) / 50_000 < 0.05 } == true, "\(String(describing: measured))")
    }

    @Test func resetForgetsEverything() {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 10)
        meter.reset()
        #expect(meter.reading(at: at(10)) == .noSample)
        meter.record(position: 10_000_000, at: at(10))
        meter.record(position: 10_500_000, at: at(10.5))
        #expect(meter.reading(at: at(10.5)) == .noSample)
    }

    @Test func resumedTransferMeasuresFromItsBaseline() throws {
        var meter = SpeedMeter()
        feed(&meter, rate: 200_000, from: 0, to: 6, position: 8_268_288)
        let measured = try #require(meter.bytesPerSecond(at: at(6)))
        #expect(abs(measured - 200_000) / 200_000 < 0.05)
    }

    @Test func readingBetweenRecordsIsNotDilutedBySamplingLag() throws {
        var meter = SpeedMeter()
        feed(&meter, rate: 1_000_000, from: 0, to: 10, perSecond: 2)
        // Just before the next record is due: the bytes of the last half second have not been reported yet,
        // which must not read as a 10 % drop.
        let measured = try #require(meter.bytesPerSecond(at: at(10.45)))
        #expect(abs(measured - 1_000_000) / 1_000_000 < 0.02, "\(measured)")
    }

    @Test func windowIsAtLeastOneSecond() {
        #expect(SpeedMeter(window: .milliseconds(10)).window == .seconds(1))
        #expect(SpeedMeter().window == .seconds(5))
    }
}
