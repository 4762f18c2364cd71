import Foundation
import HaulCore
import Testing

/// Numbers from outside (sizes and rates typed or sent over RPC, durations and rates a server implies) at their
/// extremes: each gives a sane value or a clear error — never a trap.
struct NumberExtremesTests {
    static let doubles: [Double] = [0, -1, 0x1p63 - 1024, 0x1p63, 0x1p64, .nan, .infinity, -.infinity, 1e-300, 1e300, -1e300]
    static let texts = ["0", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616", "nan", "inf", "1e-300", "1e300"]

    @Test(arguments: doubles)
    func aDoubleBecomesAnInt64OnlyWhenItFits(value: Double) {
        let fits = value.isFinite && value >= -0x1p63 && value < 0x1p63
        #expect(value.roundedInt64() == (fits ? Int64(value.rounded()) : nil))
        let clamped = value.clampedInt64()
        if value.isNaN { #expect(clamped == 0) } else if !fits { #expect(clamped == (value < 0 ? .min : .max)) } else { #expect(clamped == Int64(value.rounded())) }
    }

    @Test func roundingFollowsTheRule() {
        #expect(2.5.roundedInt64() == 3 && 2.5.roundedInt64(.down) == 2 && (-2.5).roundedInt64(.towardZero) == -2)
        #expect((0x1p63 - 0.4).roundedInt64(.down) == nil)  // the nearest double is 2^63 itself
        #expect((-0x1p63).roundedInt64() == .min)
    }

    @Test(arguments: texts + ["9999999999999999T", "9999999999999999G", "1e20", "-0", "0x10"])
    func sizesAndRatesAreReadOrRefused(text: String) throws {
        guard let bytes = ByteSize.parse(text) else {
            #expect(throws: InvalidRate(text: text, option: "--limit-rate")) { try RateLimit.parse(text, option: "--limit-rate") }
            return
        }
        #expect(bytes >= 0 && bytes < 1_000_000_000_000_000, "\(text) → \(bytes)")
        #expect(try RateLimit.parse(text)?.bytesPerSecond == (bytes > 0 ? bytes : nil))
    }

    @Test(arguments: doubles)
    func figuresShowWithoutTrapping(value: Double) {
        let rate = ByteCountFormat.rate(value)
        #expect(value.isFinite && value >= 0 ? rate.hasSuffix("/s") : rate == "—", "\(value) → \(rate)")
        #expect(!DurationFormat.eta(value).isEmpty && DurationFormat.eta(value).count <= 6)
        #expect(!DurationFormat.clock(value).isEmpty)
        #expect(!PercentFormat.text(fraction: value).isEmpty)
        #expect(Duration.seconds(within: 3600, value) >= .zero && Duration.seconds(within: 3600, value) <= .seconds(3600))
        if let eta = EtaEstimate.seconds(done: 0, total: .max, bytesPerSecond: value) { #expect(eta >= 0 && eta.isFinite) }
    }

    @Test func theLargestSizesHaveAUnit() {
        #expect(ByteCountFormat.size(.max) == "8.0 EiB")
        #expect(ByteCountFormat.size(StatedSize.limit) == "4.0 EiB")
        #expect(ByteCountFormat.compact(.max) == "8.0E")
        #expect(ByteCountFormat.bitRate(.max).hasSuffix(" Mbit/s"))
        #expect(ByteCountFormat.size(1 << 10) == "1.0 KiB")
    }

    @Test(arguments: texts + ["-inf", "1e3"])
    func retryAfterIsASaneWaitOrNone(text: String) {
        guard let seconds = RetryAfter.seconds(from: text, now: Date(timeIntervalSince1970: 0)) else { return }
        #expect(seconds.isFinite && seconds >= 0, "\(text) → \(seconds)")
        #expect(Duration.seconds(within: 3600, seconds) <= .seconds(3600))
    }
}
