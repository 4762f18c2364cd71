import Testing
@testable import HaulCore

@Suite struct DurationFormatTests {
    static let cases: [(seconds: Double, text: String)] = [
        (0.0, "0s"),
        (0.2, "1s"),               // rounded up: bytes are still to come
        (45.0, "45s"),
        (59.0, "59s"),
        (59.5, "1m00s"),
        (60.0, "1m00s"),
        (185.0, "3m05s"),
        (3599.0, "59m59s"),
        (3600.0, "1h00m"),
        (7620.0, "2h07m"),
        (7679.0, "2h07m"),         // the smaller unit is cut, not rounded
        (86_399.0, "23h59m"),
        (86_400.0, "1d00h"),
        (273_600.0, "3d04h"),
        (8_636_400.0, "99d23h"),
        (8_640_000.0, ">99d"),
        (1e300, ">99d"),
        (Double.infinity, ">99d"),
        (-3.0, "0s"),
        (-Double.infinity, "0s"),
    ]

    @Test(arguments: cases)
    func eta(seconds: Double, expected: String) {
        #expect(DurationFormat.eta(seconds) == expected)
    }

    @Test func unknownIsADash() {
        #expect(DurationFormat.eta(nil) == "—")
        #expect(DurationFormat.eta(.nan) == "—")
    }

    @Test func neverWiderThanSixCharacters() {
        var seconds = 0.5
        while seconds < 1e9 {
            #expect(DurationFormat.eta(seconds).count <= 6, "\(seconds)")
            seconds *= 1.37
        }
    }
}
