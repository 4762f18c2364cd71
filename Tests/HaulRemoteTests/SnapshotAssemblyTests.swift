import Foundation
import HaulCore
import Testing
@testable import HaulRemote

/// An attached list builds its first snapshot from pages (issue 29: 100,000 rows as one answer took it 7.7 s and
/// 307 MiB): which pages it takes, and what it shows while rows are still read.
@Suite struct SnapshotAssemblyTests {
    static let count = 10

    /// A queue of `count` tasks, the second running.
    static let queue: QueueSnapshot = {
        var rows = (1...count).map { id in
            QueueSnapshot.Row(task: DownloadTask(id: TaskID(Int64(id)), url: "http://h/\(id)", directory: "/d", position: Int64(id)), bytesReceived: 0)
        }
        rows[1].task.state = .running
        var snapshot = QueueSnapshot(rows: rows, maxConcurrent: 2, totalSpeed: 10, sequence: 7, warning: "disk")
        snapshot.schedule = "scheduled: resumes at 01:00"
        return snapshot
    }()

    /// Rows `range` of `snapshot` as the owner pages them; the first page carries the figures.
    static func page(_ range: Range<Int>, of snapshot: QueueSnapshot = queue) -> RowsPage {
        var page = RowsPage(
            sequence: snapshot.sequence, total: snapshot.rows.count, from: range.lowerBound, schedule: snapshot.schedule,
            rows: Array(snapshot.rows[range]))
        if range.lowerBound == 0 { page.shell = snapshot.shell }
        return page
    }

    @Test func pagesInOrderMakeTheWholeSnapshot() throws {
        var assembly = try #require(SnapshotAssembly(first: Self.page(0..<4)))
        #expect(!assembly.isWhole && assembly.next == 4 && assembly.count == 4)
        // What the list shows meanwhile: the rows read, counted as they are, and how far the reading is.
        #expect(assembly.snapshot.rows.count == 4 && assembly.snapshot.running.map(\.id) == [TaskID(2)])
        #expect(assembly.progressNote == "reading the queue from the background haul: 4 of 10 tasks")
        let taken = [assembly.take(Self.page(4..<8)), assembly.take(Self.page(8..<10))]
        #expect(taken == [true, true])
        #expect(assembly.isWhole && assembly.next == nil)
        #expect(assembly.snapshot == Self.queue)
        #expect(assembly.snapshot.maxConcurrent == 2 && assembly.snapshot.schedule == Self.queue.schedule)
    }

    @Test func tasksAddedTogetherHoldOneCopyOfTheirDetails() throws {
        // Decoded, each row holds its own copy of the details (options, headers, group) its neighbours hold too.
        #expect(!Self.queue.rows[1].task.sharesDetails(with: Self.queue.rows[0].task))
        var assembly = try #require(SnapshotAssembly(first: Self.page(0..<4)))
        _ = assembly.take(Self.page(4..<10))
        let rows = assembly.snapshot.rows
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $1.task.sharesDetails(with: $0.task) })
        #expect(rows == Self.queue.rows)
    }

    @Test func aPageThatDoesNotFollowIsNotTaken() throws {
        var assembly = try #require(SnapshotAssembly(first: Self.page(0..<4)))
        var later = Self.queue
        later.sequence = 8
        // Another snapshot's page (the owner let this one go, a second listing took its place), a gap, a repeat,
        // a page of nothing: none is taken, and the rows read stay as they were.
        for page in [Self.page(4..<8, of: later), Self.page(5..<8), Self.page(0..<4), Self.page(4..<4)] {
            let taken = assembly.take(page)
            #expect(!taken)
            #expect(assembly.count == 4 && assembly.next == 4)
        }
    }

    @Test func anOwnerThatSendsNoFiguresWithItsPagesGivesNoAssembly() {
        // An owner older than the list: its first page has rows but not the snapshot's figures.
        var old = Self.page(0..<4)
        old.shell = nil
        #expect(SnapshotAssembly(first: old) == nil)
        #expect(SnapshotAssembly(first: Self.page(4..<8)) == nil, "not a first page")
    }

    @Test func aWholeSnapshotIsWholeAtOnce() {
        let assembly = SnapshotAssembly(whole: Self.queue)
        #expect(assembly.isWhole && assembly.snapshot == Self.queue && assembly.total == Self.count)
    }
}
