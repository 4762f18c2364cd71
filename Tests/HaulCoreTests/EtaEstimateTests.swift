import Testing
@testable import HaulCore

@Suite struct EtaEstimateTests {
    @Test func remainingOverSpeed() {
        #expect(EtaEstimate.seconds(done: 0, total: 1000, bytesPerSecond: 100) == 10)
        #expect(EtaEstimate.seconds(done: 552, total: 1000, bytesPerSecond: 4) == 112)
        #expect(EtaEstimate.seconds(done: 1 << 30, total: 5 << 30, bytesPerSecond: 12 * 1_048_576) == 4096.0 / 12)
    }

    @Test func unknownWhenTotalOrSpeedIsUnknown() {
        #expect(EtaEstimate.seconds(done: 0, total: nil, bytesPerSecond: 100) == nil)
        #expect(EtaEstimate.seconds(done: 0, total: 1000, bytesPerSecond: nil) == nil)
    }

    @Test(arguments: [0.0, 0.0001, -5.0, Double.nan, Double.infinity])
    func unknownWhenSpeedIsAboutZeroOrNonsense(speed: Double) {
        #expect(EtaEstimate.seconds(done: 0, total: 1000, bytesPerSecond: speed) == nil)
    }

    @Test func zeroWhenDoneOrBeyond() {
        #expect(EtaEstimate.seconds(done: 1000, total: 1000, bytesPerSecond: 10) == 0)
        #expect(EtaEstimate.seconds(done: 1200, total: 1000, bytesPerSecond: 10) == 0)
    }

    @Test func negativeDoneCountsAsZero() {
        #expect(EtaEstimate.seconds(done: -50, total: 1000, bytesPerSecond: 100) == 10)
    }
}
