import HaulCore
import Testing
@testable import HaulTransfer

/// How far each request of a range connection reaches: about a second of its speed, so no connection holds
/// much that another cannot take, and never so short that the pause between requests matters.
struct RequestWindowTests {
    let mib: Int64 = 1 << 20

    @Test func anUnknownSpeedAsksForOneMebibyteFirst() {
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 48 * mib, speed: 0, roundTrip: 0) == 1 * mib)
    }

    @Test func aRequestLastsAboutASecond() {
        // 4 MiB/s on loopback: 4 MiB a request, whatever the lease.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 100 * mib, speed: Double(4 * mib), roundTrip: 0) == 4 * mib)
        // A slow connection holds little: 1 MiB/s, 1 MiB.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 100 * mib, speed: Double(mib), roundTrip: 0) == 1 * mib)
        // Never under 256 KiB.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 100 * mib, speed: 1000, roundTrip: 0) == 256 << 10)
    }

    @Test func aFarServerGetsTwentyRoundTripsAtLeast() {
        // 100 ms: two seconds of 4 MiB/s.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 100 * mib, speed: Double(4 * mib), roundTrip: 0.1) == 8 * mib)
    }

    @Test func aSmallRestGoesInOneRequest() {
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 5 * mib, speed: Double(4 * mib), roundTrip: 0) == 5 * mib)
        #expect(RequestWindow.end(cursor: 10 * mib, leaseEnd: 10 * mib + 300 << 10, speed: 0, roundTrip: 0) == 10 * mib + 300 << 10)
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 0, speed: 0, roundTrip: 0) == 0)
    }

    @Test func requestsEndOnTheAlignment() {
        let end = RequestWindow.end(cursor: 1000, leaseEnd: 90 * mib, speed: 3_000_000, roundTrip: 0)
        #expect(end % (64 << 10) == 0)
        #expect(end > 1000 && end < 90 * mib)
    }
}
