import Testing
@testable import HaulTransfer

/// When received bytes are made durable (DESIGN §5).
struct CheckpointPolicyTests {
    let policy = CheckpointPolicy(seconds: 1)

    @Test func nothingUndurableNeedsNoCheckpoint() {
        #expect(!policy.isDue(sinceLast: .seconds(5), undurable: 0, total: nil))
    }

    @Test func onceAnIntervalAtLeast() {
        #expect(policy.isDue(sinceLast: .seconds(1), undurable: 1, total: nil))
        #expect(!policy.isDue(sinceLast: .milliseconds(999), undurable: 1, total: nil))
    }

    @Test func soonerOnceAHundredTwentyEighthOfTheFileIsAtRisk() {
        let total: Int64 = 1 << 30
        #expect(policy.isDue(sinceLast: .milliseconds(100), undurable: total / 128, total: total))
        #expect(!policy.isDue(sinceLast: .milliseconds(100), undurable: total / 128 - 1, total: total))
        // At most ten times a second.
        #expect(!policy.isDue(sinceLast: .milliseconds(99), undurable: total, total: total))
    }

    @Test func smallFilesWaitForAQuarterMebibyte() {
        #expect(!policy.isDue(sinceLast: .milliseconds(200), undurable: (256 << 10) - 1, total: 1 << 20))
        #expect(policy.isDue(sinceLast: .milliseconds(200), undurable: 256 << 10, total: 1 << 20))
    }
}
