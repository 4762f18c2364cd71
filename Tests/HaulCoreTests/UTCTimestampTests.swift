import Foundation
import Testing
@testable import HaulCore

@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (0.0, "1970-01-01 00:00:00.000"),
        (1_736_157_600.123, "2025-01-06 10:00:00.123"),
        (1_736_157_600.9999, "2025-01-06 10:00:00.999"),   // cut, not rounded up to the next second
        (951_782_400.5, "2000-02-29 00:00:00.500"),
        (-1.5, "1969-12-31 23:59:58.500"),
        (-62_135_596_800.0, "0001-01-01 00:00:00.000"),
    ])
    func formats(seconds: Double, expected: String) {
        #expect(UTCTimestamp.text(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func readsWhatItWrites() {
        for seconds in [0.0, 1_736_157_600.123, 951_782_400.5, -1.5, 253_402_300_799.0] {
            let text = UTCTimestamp.text(Date(timeIntervalSince1970: seconds))
            let date = UTCTimestamp.date(from: text)
            #expect(date.map(UTCTimestamp.text) == text)
            #expect(abs((date?.timeIntervalSince1970 ?? .nan) - seconds) < 0.001)
        }
    }

    @Test func readsShorterFractionsAndNone() {
        #expect(UTCTimestamp.date(from: "2025-01-06 10:00:00")?.timeIntervalSince1970 == 1_736_157_600)
        #expect(UTCTimestamp.date(from: "2025-01-06 10:00:00.5")?.timeIntervalSince1970 == 1_736_157_600.5)
    }

    @Test(arguments: [
        "", "2025-01-06", "2025-01-06T10:00:00.000", "2025-13-01 00:00:00.000", "2025-02-29 00:00:00.000",
        "2025-01-06 24:00:00.000", "2025-01-06 10:00:00.", "2025-01-06 10:00:00.1234", "2025-01-06 10:00:0x.000",
    ])
    func refusesOtherText(text: String) {
        #expect(UTCTimestamp.date(from: text) == nil)
    }
}
