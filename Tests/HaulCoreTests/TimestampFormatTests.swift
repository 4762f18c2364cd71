import Foundation
import HaulCore
import Testing

struct TimestampFormatTests {
    static let moment = Date(timeIntervalSince1970: 1_795_000_000.25)

    @Test func theZonesOffsetFollowsTheLocalTime() throws {
        #expect(TimestampFormat.text(Self.moment, in: try #require(TimeZone(identifier: "UTC"))) == "2026-11-18T11:06:40.250+00:00")
        #expect(TimestampFormat.text(Self.moment, in: try #require(TimeZone(secondsFromGMT: -(3 * 3600 + 1800))))
            == "2026-11-18T07:36:40.250-03:30")
        // Across midnight, the local date.
        #expect(TimestampFormat.text(Self.moment, in: try #require(TimeZone(secondsFromGMT: 13 * 3600))) == "2026-11-19T00:06:40.250+13:00")
    }
}
