import Testing
@testable import HaulTransfer

/// How the first ranges of a download with mirrors are shared among its links (DESIGN §8).
struct LinkSharesTests {
    @Test func eachLinkGetsItsSplitWithinItsHostsRoom() {
        let links = [
            LinkShares.Link(host: "a", isMain: true, target: 8, hasOpen: true),
            LinkShares.Link(host: "b", isMain: false, target: 8),
        ]
        // -s applies to each link: 8 + 8.
        #expect(LinkShares.counts(links, room: { _ in 16 }) == [8, 8])
        // The open first connection counts against its host's room already.
        #expect(LinkShares.counts(links, room: { $0 == "a" ? 3 : 8 }) == [4, 8])
    }

    @Test func linksOnOneHostShareItsRoom() {
        let links = [
            LinkShares.Link(host: "h", isMain: true, target: 4),
            LinkShares.Link(host: "h", isMain: false, target: 4),
            LinkShares.Link(host: "g", isMain: false, target: 4),
        ]
        #expect(LinkShares.counts(links, room: { $0 == "h" ? 6 : 8 }) == [4, 2, 4])
    }

    @Test func aDroppedLinkGetsNoneAndTheMainLinkAlwaysOneToStart() {
        let links = [
            LinkShares.Link(host: "h", isMain: true, target: 4),
            LinkShares.Link(host: "g", isMain: false, isLive: false, target: 4),
        ]
        #expect(LinkShares.counts(links, room: { _ in 0 }) == [1, 0])
    }

    @Test func rangesGoToTheLinksInTurnFromTheOpenOne() {
        #expect(LinkShares.owners(leases: 6, counts: [2, 4], start: 0) == [0, 1, 0, 1, 1, 1])
        #expect(LinkShares.owners(leases: 3, counts: [2, 2], start: 1) == [1, 0, 1])
        // Fewer ranges than connections (a small file): the first ones in turn.
        #expect(LinkShares.owners(leases: 2, counts: [8, 8], start: 0) == [0, 1])
    }

    @Test func workGoesToTheFastestLinkFirstAfterTheOneThatJustFinished() {
        // Measured per connection: link 2 is fastest, link 0 not known yet.
        #expect(LinkShares.order(speeds: [0, 1_000_000, 3_000_000], live: [true, true, true], thief: nil) == [2, 1, 0])
        #expect(LinkShares.order(speeds: [0, 1_000_000, 3_000_000], live: [true, true, true], thief: 1) == [1, 2, 0])
        // A dropped link is offered nothing, even as the thief.
        #expect(LinkShares.order(speeds: [2, 1, 3], live: [true, true, false], thief: 2) == [0, 1])
        #expect(LinkShares.order(speeds: [0, 0], live: [true, true], thief: nil) == [0, 1])
    }
}
