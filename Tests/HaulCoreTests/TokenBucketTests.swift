import Testing
@testable import HaulCore

@Suite struct TokenBucketTests {
    /// Simulates a reader that takes 16 KiB whenever allowed, for `seconds` in 10 ms steps.
    func delivered(rate: Int64, seconds: Double) -> [Int64] {
        var bucket = TokenBucket(rate: rate)
        var perSecond: [Int64] = Array(repeating: 0, count: Int(seconds))
        let step = 0.01
        for tick in 0..<Int(seconds / step) {
            bucket.refill(after: step)
            while bucket.isAvailable {
                bucket.take(16 * 1024)
                perSecond[Int(Double(tick) * step)] += 16 * 1024
            }
        }
        return perSecond
    }

    @Test func holdsTheRateWithinFivePercentEverySecond() {
        for rate: Int64 in [500 * 1024, 2 << 20, 10 << 20] {
            let seconds = delivered(rate: rate, seconds: 10)
            let total = seconds.reduce(0, +)
            #expect(abs(Double(total) / 10 - Double(rate)) / Double(rate) < 0.05, "rate \(rate)")
            // Smooth: no second far from its share (the first carries at most one burst more).
            for (index, bytes) in seconds.enumerated() {
                #expect(abs(Double(bytes) - Double(rate)) / Double(rate) < 0.1, "rate \(rate), second \(index): \(bytes)")
            }
        }
    }

    @Test func anIdleSpellEarnsOnlyTheBurst() {
        var bucket = TokenBucket(rate: 1 << 20)
        bucket.take(Int(bucket.burst))
        bucket.refill(after: 60)
        #expect(bucket.balance == bucket.burst)
        #expect(bucket.burst < Double(1 << 20) / 10)
    }

    @Test func aNewRateAppliesAtOnce() {
        var bucket = TokenBucket(rate: 10 << 20)
        bucket.change(rate: 100 * 1024)
        #expect(bucket.rate == 100 * 1024)
        #expect(bucket.balance <= bucket.burst)
    }
}
