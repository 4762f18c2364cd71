import Foundation
import Testing
@testable import HaulCore

@Suite struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT

    @Test(arguments: [
        ("120", 120.0),
        ("0", 0.0),
        (" 5 ", 5.0),
        ("1.5", 1.5),
        ("-5", 0.0),
        ("86400", 86_400.0),
        ("Sun, 06 Nov 1994 08:50:07 GMT", 30.0),           // 30 s after now
        ("Sun, 06 Nov 1994 08:49:37 GMT", 0.0),            // now
        ("Sat, 05 Nov 1994 08:49:37 GMT", 0.0),            // in the past
        ("Sunday, 06-Nov-94 09:49:37 GMT", 3600.0),
    ])
    func reads(value: String, expected: Double) {
        #expect(RetryAfter.seconds(from: value, now: Self.now) == expected)
    }

    @Test(arguments: ["", "  ", "soon", "1e3", "inf", "nan", "+5", "1.2.3", "5s", "0x10", ".", "-", "12 34"])
    func rejectsGarbage(value: String) {
        #expect(RetryAfter.seconds(from: value, now: Self.now) == nil)
    }
}
