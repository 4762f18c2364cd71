import Testing
@testable import HaulCore

@Suite struct ContentRangeTests {
    @Test func parsesFullForm() throws {
        let range = try #require(ContentRange(parsing: "bytes 0-99/200"))
        #expect(range == ContentRange(first: 0, last: 99, total: 200))
        #expect(range.length == 100)
        #expect(!range.isUnsatisfiedRange)
    }

    @Test func parsesUnsatisfiedForm() throws {
        let range = try #require(ContentRange(parsing: "bytes */200"))
        #expect(range == ContentRange(first: nil, last: nil, total: 200))
        #expect(range.length == nil)
        #expect(range.isUnsatisfiedRange)
    }

    @Test func parsesUnknownTotal() {
        #expect(ContentRange(parsing: "bytes 5-9/*") == ContentRange(first: 5, last: 9, total: nil))
    }

    @Test(arguments: [
        ("bytes 8268288-16777215/16777216", ContentRange(first: 8_268_288, last: 16_777_215, total: 16_777_216)),
        ("BYTES 0-0/1", ContentRange(first: 0, last: 0, total: 1)),
        ("  bytes   10-19/20  ", ContentRange(first: 10, last: 19, total: 20)),
        ("bytes\t0-9/10", ContentRange(first: 0, last: 9, total: 10)),
        ("bytes 0-4611686018427387903/4611686018427387904",
         ContentRange(first: 0, last: StatedSize.limit - 1, total: StatedSize.limit)),
        ("bytes */0", ContentRange(first: nil, last: nil, total: 0)),
    ])
    func acceptsEdgeCases(value: String, expected: ContentRange) {
        #expect(ContentRange(parsing: value) == expected)
    }

    @Test(arguments: [
        "",
        "bytes",
        "bytes ",
        "0-99/200",                 // no unit
        "items 0-99/200",           // another unit
        "bytes0-99/200",            // no space after the unit
        "bytes 0-99",               // no total
        "bytes 0-99/",
        "bytes -99/200",
        "bytes 0-/200",
        "bytes 99-0/200",           // last < first
        "bytes 0-200/200",          // last >= total
        "bytes 0-199/100",
        "bytes */*",
        "bytes 0-99/-1",
        "bytes +0-99/200",
        "bytes 0x0-99/200",
        "bytes 0 - 99/200",
        "bytes 0-99/200/300",
        "bytes 0-99-100/200",
        "bytes 0-9223372036854775808/9223372036854775809",  // beyond Int64
        "bytes 0-4611686018427387905/*",                    // beyond StatedSize.limit
        "bytes 0-9223372036854775806/9223372036854775807",
        "bytes ٠-٩/١٠",             // Arabic-Indic digits are not HTTP digits
    ])
    func rejectsMalformed(value: String) {
        #expect(ContentRange(parsing: value) == nil)
    }

    /// Numbers a hostile server may send: none traps, and a range that parses has a length that fits.
    @Test(arguments: [
        "0", "-1", "9223372036854775807", "9223372036854775808", "18446744073709551616", "4611686018427387904",
        "4611686018427387903", "NaN", "inf", "1e-300", "1e300",
    ])
    func extremeNumbersNeverTrap(number: String) {
        for value in ["bytes 0-\(number)/*", "bytes \(number)-\(number)/*", "bytes 0-0/\(number)", "bytes */\(number)"] {
            guard let range = ContentRange(parsing: value) else { continue }
            #expect([range.first, range.last, range.total].allSatisfy { ($0 ?? 0) <= StatedSize.limit }, "\(value)")
            if let length = range.length { #expect(length >= 1 && length <= StatedSize.limit + 1, "\(value)") }
        }
        let lengths: [String: Int64] = ["0": 1, "4611686018427387903": StatedSize.limit, "4611686018427387904": StatedSize.limit + 1]
        #expect(ContentRange(parsing: "bytes 0-\(number)/*")?.length == lengths[number])
    }

    @Test(arguments: [
        ("0", StatedSize.Reading.bytes(0)), ("4611686018427387904", .bytes(StatedSize.limit)),
        ("4611686018427387905", .tooLarge), ("9223372036854775807", .tooLarge), ("18446744073709551616", .tooLarge),
        ("-1", .malformed), ("+1", .malformed), ("1e3", .malformed), ("NaN", .malformed), ("inf", .malformed), ("", .malformed),
    ])
    func statedSizesAboveTheLimitAreTooLarge(text: String, expected: StatedSize.Reading) {
        #expect(StatedSize.read(Substring(text)) == expected)
    }
}
