import Foundation
import HaulCore
import Testing

/// `haul.log`: every line carries its time.
struct LogLineStampTests {
    @Test func everyLineOfAMessageStartsWithItsTime() throws {
        let moment = Date(timeIntervalSince1970: 1_794_913_600.25)
        let zone = try #require(TimeZone(secondsFromGMT: 3600))
        let stamped = LogLineStamp.stamped("haul: background haul running\n  socket /s", at: moment, in: zone)
        let stamp = TimestampFormat.text(moment, in: zone)
        #expect(stamp.hasSuffix("+01:00"))
        #expect(stamped == "\(stamp) haul: background haul running\n\(stamp)   socket /s")
    }
}
