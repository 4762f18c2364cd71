import Foundation
import Testing
@testable import HaulCore

@Suite struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the example date of RFC 9110.
    static let example = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "sun, 06 nov 1994 08:49:37 GMT",
        "  Sun, 06 Nov 1994 08:49:37 GMT  ",
    ])
    func parsesTheThreeForms(text: String) {
        #expect(HTTPDate.parse(text) == Self.example)
    }

    @Test func formatsIMFFixdate() {
        #expect(HTTPDate.format(Self.example) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: -1)) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.format(Date(timeIntervalSince1970: 784_111_777.9)) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func roundTripsOverManyDays() {
        // Every 7 days and 13 hours from 1960 to about 2100, through leap years and the year 2000.
        var seconds: Int64 = -315_619_200
        while seconds < 4_102_444_800 {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(seconds)")
            seconds += 7 * 86_400 + 13 * 3600 + 17
        }
    }

    @Test func twoDigitYearsOfRFC850() {
        #expect(HTTPDate.parse("Thursday, 01-Jan-70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Saturday, 01-Jan-00 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
    }

    @Test(arguments: [
        "",
        "yesterday",
        "Sun, 06 Nov 1994 08:49:37",          // no zone
        "Sun, 06 Nov 1994 08:49:37 PST",      // not GMT
        "Sun, 6 Nov 1994 08:49:37 GMT",       // one-digit day
        "Sun, 06 Nov 94 08:49:37 GMT",        // two-digit year in IMF-fixdate
        "Sun, 31 Nov 1994 08:49:37 GMT",      // no such day
        "Sun, 29 Feb 1900 08:49:37 GMT",      // 1900 is no leap year
        "Sun, 06 Foo 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT",
        "2024-05-01T12:00:00Z",
    ])
    func rejectsMalformed(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
