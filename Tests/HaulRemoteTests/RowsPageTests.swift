import Foundation
import HaulCore
import HaulTestSupport
import Testing
@testable import HaulRemote
import HaulReport

/// `haul list` through a running haul reads the queue a page at a time (issue 29: the whole snapshot of 100,000 tasks
/// as one answer took the CLI 304 MiB and 4 s to decode): no answer it reads holds the queue.
@Suite(.timeLimit(.minutes(1))) struct RowsPageTests {
    static let count = 2_000
    /// Far below the whole queue's JSON (about 1.5 MB for 2,000 rows), far above a page's.
    static let answerLimit = 256 << 10
    let box = SnapshotBox()

    /// A controller holding `count` tasks, its RPC served on a Unix socket while `body` runs with a client of it.
    func serving(_ body: (DownloadController, RPCDispatcher, OwnerClient) async throws -> Void) async throws {
        try await servingQueue(count: Self.count, answerLimit: Self.answerLimit, snapshots: box, body)
    }

    @Test func everyRowComesInOrderInAnswersFarSmallerThanTheQueue() async throws {
        try await serving { _, dispatcher, client in
            // The whole snapshot is over the bound a page keeps well under.
            await #expect(throws: (any Error).self) { _ = try await client.snapshot() }
            var ids: [TaskID] = []
            try await client.forEachRow(pageSize: 500) { ids.append($0.id) }
            #expect(ids == box.read().rows.map(\.id))
            #expect(ids.count == Self.count)
            #expect(!dispatcher.haul.listing.isHolding, "the snapshot held after the last page")
        }
    }

    @Test func theOwnerFormatsTheListingAPageAtATime() async throws {
        try await serving { controller, dispatcher, client in
            await controller.perform(.pause(TaskID(7)))
            for format in [QueueListing.Format(), QueueListing.Format(json: true), QueueListing.Format(ascii: true, state: .paused)] {
                var text = ""
                var pages = 0
                let count = try await client.forEachLines(pageSize: 500, format: format) { page in
                    text += page.text
                    pages += 1
                }
                // What the CLI prints from the rows itself, in answers far below the whole queue's.
                let expected = box.read().rows.compactMap { QueueListing.line($0, format) }
                #expect(text == expected.map { $0 + "\n" }.joined())
                #expect(count == expected.count && pages == (format.state == nil ? Self.count / 500 : 1))
                #expect(!dispatcher.haul.listing.isHolding)
            }
        }
    }

    @Test func thePagesOfOneListingComeFromOneSnapshot() async throws {
        try await serving { controller, dispatcher, client in
            let first = try await client.rows(from: 0, limit: 100)
            #expect(first.rows.count == 100 && first.total == Self.count)
            // The queue changes between two pages: the listing reads on in the snapshot it began with.
            await controller.perform(.removeAll(only: nil, deleteFile: false))
            #expect(box.read().rows.isEmpty)
            let second = try await client.rows(from: 100, limit: 100, sequence: first.sequence)
            #expect(second.sequence == first.sequence && second.rows.map(\.id.rawValue) == Array(101...200))
            var from = 200
            while from < Self.count {
                #expect(dispatcher.haul.listing.isHolding)
                let page = try await client.rows(from: from, limit: 600, sequence: first.sequence)
                #expect(page.sequence == first.sequence && page.rows.first?.id == TaskID(Int64(from + 1)))
                from += page.rows.count
            }
            #expect(from == Self.count)
            #expect(!dispatcher.haul.listing.isHolding)
            // A listing that begins now reads the latest snapshot; a page of none gives the figures alone.
            #expect(try await client.rows(from: 0, limit: 0).total == 0)
        }
    }

    @Test func aListingThatStopsReadingLeavesNoSnapshotBehind() async throws {
        let pin = ListingPin(lifetime: .milliseconds(100))
        pin.update(QueueSnapshot(sequence: 3), more: true)
        #expect(pin.snapshot(sequence: 3) != nil)
        // `haul list | head`: no last page comes; the snapshot goes anyway.
        try await eventually("the snapshot let go", timeout: .seconds(10)) { !pin.isHolding }
        // A later listing's snapshot is not let go by the earlier one's timer.
        pin.update(QueueSnapshot(sequence: 4), more: true)
        #expect(pin.isHolding)
    }
}
