import HaulCore
import Testing

/// Seconds from a server or a setting become a duration that never traps and never lasts forever.
struct DurationWithinTests {
    @Test func secondsStayWithinZeroAndTheLimit() {
        #expect(Duration.seconds(within: 60, 1.5) == .milliseconds(1500))
        #expect(Duration.seconds(within: 60, -3) == .zero)
        #expect(Duration.seconds(within: 60, .nan) == .zero)
        #expect(Duration.seconds(within: 60, .infinity) == .seconds(60))
        #expect(Duration.seconds(within: 60, 1e300) == .seconds(60))
    }
}
