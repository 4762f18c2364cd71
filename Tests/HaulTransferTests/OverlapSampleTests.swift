import Testing
@testable import HaulTransfer

/// A mirror's sample against the main link's bytes (DESIGN §8): the same bytes agree, another file of the same
/// length shows at the first byte that differs, and a window not yet known from both waits.
struct OverlapSampleTests {
    let window: Range<Int64> = 1000..<1008
    let main: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]

    @Test func theSameBytesAgree() {
        #expect(OverlapSample.verdict(window: window, reference: main, mirror: main) == .agrees)
    }

    @Test func otherBytesDifferAtTheirFileOffset() {
        var other = main
        other[5] = 0
        #expect(OverlapSample.verdict(window: window, reference: main, mirror: other) == .differs(at: 1005))
        #expect(OverlapSample.reason(differsAt: 1005).contains("byte 1005"))
    }

    @Test func aDifferenceShowsBeforeEitherSideIsComplete() {
        #expect(OverlapSample.verdict(window: window, reference: [1, 2, 3], mirror: [1, 9]) == .differs(at: 1001))
    }

    @Test func aWindowNotYetKnownFromBothWaits() {
        #expect(OverlapSample.verdict(window: window, reference: [1, 2, 3], mirror: main) == .waiting)
        #expect(OverlapSample.verdict(window: window, reference: main, mirror: []) == .waiting)
    }

    @Test func theWindowIsTheStartOfTheMainLinksFirstRange() {
        #expect(OverlapSample.window(start: 0, rangeEnd: 4 << 20) == 0..<OverlapSample.length)
        #expect(OverlapSample.window(start: 100, rangeEnd: 300) == 100..<300)
        #expect(OverlapSample.window(start: 100, rangeEnd: 100).isEmpty)
    }
}
