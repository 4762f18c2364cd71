import Testing
@testable import HaulTransfer

/// A rate-limited connection's receive buffer: at most a quarter second of its share, a power of two, within bounds.
struct ReceiveWindowTests {
    @Test func aConnectionHoldsAQuarterSecondOfItsShare() {
        // 6 MiB/s over 12 connections: 512 KiB/s each, a quarter second is 128 KiB.
        #expect(ReceiveWindow.bytes(rate: 6 << 20, connections: 12) == 128 << 10)
        // Rounded down to a power of two: never more than a quarter second.
        #expect(ReceiveWindow.bytes(rate: (6 << 20) - 12, connections: 12) == 64 << 10)
        #expect(ReceiveWindow.bytes(rate: (12 << 20) - 12, connections: 12) == 128 << 10)
    }

    @Test func tinyAndHugeSharesStayWithinTheBounds() {
        #expect(ReceiveWindow.bytes(rate: 1024, connections: 8) == ReceiveWindow.smallest)
        #expect(ReceiveWindow.bytes(rate: 0, connections: 0) == ReceiveWindow.smallest)
        #expect(ReceiveWindow.bytes(rate: Int64.max, connections: 1) == ReceiveWindow.largest)
    }

    @Test func moreConnectionsGetSmallerBuffers() {
        let few = ReceiveWindow.bytes(rate: 20 << 20, connections: 2)
        let many = ReceiveWindow.bytes(rate: 20 << 20, connections: 16)
        #expect(many < few)
        #expect(many * 16 <= 20 << 20)
    }
}
