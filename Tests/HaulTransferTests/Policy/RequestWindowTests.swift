import HaulCore
import Testing
@testable import HaulTransfer

/// How far each request of a range connection reaches.
struct RequestWindowTests {
    let mib: Int64 = 1 << 20

    @Test func anUnknownSpeedAsksForAThirdOfTheLease() {
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 48 * mib, speed: 0, roundTrip: 0) == 16 * mib)
    }

    @Test func requestsShrinkTowardsTheEndButNotBelowAQuarterSecond() {
        // 4 MiB/s on loopback: never under 1 MiB.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 2 * mib, speed: 4e6 * 1.048576, roundTrip: 0) == 1 * mib)
        // A far server (50 ms): ten round trips of bytes at least.
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 100 * mib, speed: Double(4 * mib), roundTrip: 0.05) == 100 * mib / 3 + 64 * 1024 - (100 * mib / 3) % (64 * 1024))
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 8 * mib, speed: Double(4 * mib), roundTrip: 0.05) == 2752 * 1024)
    }

    @Test func aSmallRestGoesInOneRequest() {
        #expect(RequestWindow.end(cursor: 10 * mib, leaseEnd: 10 * mib + 300 << 10, speed: 0, roundTrip: 0) == 10 * mib + 300 << 10)
        #expect(RequestWindow.end(cursor: 0, leaseEnd: 0, speed: 0, roundTrip: 0) == 0)
    }

    @Test func requestsEndOnTheAlignment() {
        let end = RequestWindow.end(cursor: 1000, leaseEnd: 90 * mib, speed: 0, roundTrip: 0)
        #expect(end % (64 << 10) == 0)
        #expect(end > 1000 && end < 90 * mib)
    }
}
