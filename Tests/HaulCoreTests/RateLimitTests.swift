import Foundation
import Testing
@testable import HaulCore

/// One parser for every rate a user types, one message for what it refuses, and the per-task override.
@Suite struct RateLimitTests {
    @Test(arguments: [
        ("1048576", Int64(1_048_576)), ("500K", 500 << 10), ("500k", 500 << 10), ("2M", 2 << 20), ("1.5G", 3 << 29),
        (" 64K ", 64 << 10), ("1", 1),
    ])
    func parsesBytesAndBinarySuffixes(text: String, bytes: Int64) throws {
        #expect(try RateLimit.parse(text)?.bytesPerSecond == bytes)
    }

    @Test(arguments: ["0", "0K", "0.4"])
    func zeroMeansNoLimit(text: String) throws {
        #expect(try RateLimit.parse(text) == nil)
    }

    @Test(arguments: ["", "fast", "-1", "2T", "1e20", "K", "nan"])
    func refusesWhatIsNotARate(text: String) {
        #expect(throws: InvalidRate(text: text, option: "--limit-rate")) { try RateLimit.parse(text, option: "--limit-rate") }
    }

    @Test func theMessageQuotesTheValueAndNamesTheOption() {
        #expect(InvalidRate(text: "fast", option: "--limit-rate").description
            == "--limit-rate 'fast' is not a rate like 500K, 2M or 1048576 (bytes per second; 0 for none)")
        #expect(InvalidRate(text: "fast").description.hasPrefix("'fast' is not a rate"))
    }

    @Test func aLimitIsAlwaysPositive() {
        #expect(RateLimit(bytesPerSecond: 0) == nil)
        #expect(RateLimit(bytesPerSecond: -5) == nil)
        #expect(RateLimit(bytesPerSecond: 1)?.bytesPerSecond == 1)
    }

    @Test func describesItselfAsARate() {
        #expect(RateLimit(bytesPerSecond: 2 << 20)?.description == "2.0 MiB/s")
        #expect(RateLimit(bytesPerSecond: 2 << 20).rateText == "2.0 MiB/s")
        #expect(RateLimit?.none.rateText == "no limit")
    }

    @Test func codesAsItsBareNumber() throws {
        let limit = try #require(RateLimit(bytesPerSecond: 4096))
        #expect(String(decoding: try JSONEncoder().encode([limit]), as: UTF8.self) == "[4096]")
        #expect(try JSONDecoder().decode([RateLimit].self, from: Data("[4096]".utf8)) == [limit])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RateLimit].self, from: Data("[0]".utf8)) }
    }

    @Test func anOverrideWinsOverTheRunsLimitOnlyWhenSet() throws {
        let run = try #require(RateLimit(bytesPerSecond: 1 << 20))
        let task = try #require(RateLimit(bytesPerSecond: 256 << 10))
        #expect(RateOverride.inherit.resolved(inheriting: run) == run)
        #expect(RateOverride.inherit.resolved(inheriting: nil) == nil)
        #expect(RateOverride.unlimited.resolved(inheriting: run) == nil)
        #expect(RateOverride.limited(task).resolved(inheriting: run) == task)
        #expect(RateOverride.limited(task).resolved(inheriting: nil) == task)
    }

    @Test func settingNoLimitLiveIsUnlimitedNotInherited() throws {
        let task = try #require(RateLimit(bytesPerSecond: 256 << 10))
        #expect(RateOverride(setting: nil) == .unlimited)
        #expect(RateOverride(setting: task) == .limited(task))
        #expect(RateOverride(setting: nil).setLimit == nil)
        #expect(RateOverride(setting: task).setLimit == task)
        #expect(RateOverride.inherit.setLimit == nil)
    }
}
