import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// A snapshot that only moves the running tasks' figures costs the list those tasks, not the queue: counted in rows
/// visited (`ShownRowsCache.rowsVisited`), and checked against the rows worked out afresh.
@Suite struct ShownRowsCacheTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static let size = 10_000

    /// 10,000 tasks, the first running; all in one group (as `haul add -i` makes them) or each on its own.
    static func queue(grouped: Bool) -> QueueSnapshot {
        let rows = (1...size).map { id -> QueueSnapshot.Row in
            var row = TestQueue.row(
                Int64(id), "file-\(id).bin", id == 1 ? .running : .waiting, done: 0, total: 1000, speed: id == 1 ? 512 : nil)
            if grouped { row.task.group = "links.txt" }
            return row
        }
        return QueueSnapshot(rows: rows, maxConcurrent: 1, sequence: 1)
    }

    /// The snapshot a second later: the running task received `bytes` at `speed`, patched in place as the controller
    /// and an attached list's mirror patch it.
    static func progressed(_ snapshot: QueueSnapshot, bytes: Int64, speed: Double) -> QueueSnapshot {
        var next = snapshot
        var row = next.rows[0]
        row.bytesReceived = bytes
        row.speed = speed
        let updated = next.updateRow(at: 0, with: row)
        #expect(updated)
        next.sequence += 1
        return next
    }

    @Test(arguments: [false, true])
    func progressOfOneTaskCostsThatTaskNotTheQueue(grouped: Bool) {
        var cache = ShownRowsCache()
        var snapshot = Self.queue(grouped: grouped)
        let firstReferences = cache.referencesVersion(snapshot)
        _ = cache.shown(snapshot, view: ListView())
        _ = cache.figures(snapshot)
        #expect(cache.rowsVisited >= Self.size, "the first snapshot is worked out whole")
        let version = cache.version
        for second in 1...5 {
            snapshot = Self.progressed(snapshot, bytes: Int64(second) * 100, speed: Double(second) * 256)
            let before = cache.rowsVisited
            let references = cache.referencesVersion(snapshot)
            let shown = cache.shown(snapshot, view: ListView())
            let figures = cache.figures(snapshot)
            #expect(cache.rowsVisited - before <= 3, "rows visited for one running task's progress")
            #expect(figures == QueueFigures(rows: snapshot.rows), "the kept figures are the figures counted afresh")
            #expect(shown == ListView().shown(in: snapshot), "the kept rows are the rows worked out afresh")
            #expect(references == firstReferences, "no row's reference changed")
        }
        #expect(cache.version == version, "nothing a context is made of changed")
        if grouped {
            let summary = cache.shown(snapshot, view: ListView()).groups[0].summary
            #expect(summary.done == 500 && summary.speed == 1280 && summary.total == Int64(Self.size) * 1000)
        }
    }

    @Test func aTaskThatLearnsItsNameOrChangesStateIsShownAfresh() {
        var cache = ShownRowsCache()
        var snapshot = Self.queue(grouped: false)
        _ = cache.shown(snapshot, view: ListView(filter: "renamed"))
        let version = cache.version
        var row = snapshot.rows[1]
        row.task.fileName = "renamed.bin"
        let updated = snapshot.updateRow(at: 1, with: row)
        #expect(updated)
        snapshot.sequence += 1
        #expect(cache.shown(snapshot, view: ListView(filter: "renamed")).downloading == [.task(1)])
        #expect(cache.version > version)

        snapshot.rows[0].task.state = .paused
        snapshot.sequence += 1
        #expect(cache.shown(snapshot, view: ListView()) == ListView().shown(in: snapshot))
        let renamed = cache.version
        snapshot.rows[1].task.fileName = "renamed-again.bin"
        snapshot.sequence += 1
        #expect(cache.referencesVersion(snapshot) > renamed)
    }

    /// A key that changes the view (order, open group, filter) over the same snapshot: its groups and their figures are
    /// worked out once, and the rows agree with those worked out afresh.
    @Test func groupsAreWorkedOutOncePerSnapshot() {
        var cache = ShownRowsCache()
        var snapshot = Self.queue(grouped: true)
        let views = [
            ListView(), ListView(sort: .name), ListView(sort: .name, expanded: ["links.txt"]), ListView(expanded: ["links.txt"]),
            ListView(filter: "file-9", expanded: ["links.txt"]), ListView(sort: .size),
        ]
        for view in views {
            #expect(cache.shown(snapshot, view: view) == view.shown(in: snapshot))
        }
        #expect(cache.groupsMade == 1)
        snapshot.rows[1].task.state = .paused
        snapshot.sequence += 1
        #expect(cache.shown(snapshot, view: views[2]) == views[2].shown(in: snapshot))
        #expect(cache.groupsMade == 2)
    }

    /// The search text made ahead (when no key came) is the one the filter's first key reads: that key makes none.
    @Test func searchTextMadeAheadServesTheFiltersFirstKey() {
        var cache = ShownRowsCache()
        let snapshot = Self.queue(grouped: false)
        _ = cache.shown(snapshot, view: ListView())
        #expect(cache.searchesMade == 0, "no filter, no name order: no search text")
        cache.prepareSearch(snapshot)
        cache.prepareSearch(snapshot)
        #expect(cache.searchesMade == 1)
        for view in [ListView(filter: "f"), ListView(filter: "file-99"), ListView(sort: .name)] {
            #expect(cache.shown(snapshot, view: view) == view.shown(in: snapshot))
        }
        #expect(cache.searchesMade == 1, "the filter's keys and the name order read the search text made ahead")
    }

    @Test func anOrderByLiveFiguresIsSortedAgain() {
        var cache = ShownRowsCache()
        let view = ListView(sort: .speed)
        var snapshot = QueueSnapshot(
            rows: [
                TestQueue.row(1, "a.bin", .running, done: 0, total: 100, speed: 10),
                TestQueue.row(2, "b.bin", .running, done: 0, total: 100, speed: 20),
            ],
            sequence: 1)
        #expect(cache.shown(snapshot, view: view).downloading == [.task(1), .task(0)])
        snapshot = Self.progressed(snapshot, bytes: 50, speed: 30)
        #expect(cache.shown(snapshot, view: view).downloading == [.task(0), .task(1)])
    }

    @Test func groupFiguresMoveByTheShareThatChanged() {
        var summary = GroupSummary(rows: Self.queue(grouped: true).rows, members: [0, 1])
        #expect(summary.speed == 512 && summary.done == 0 && summary.total == 2000)
        var running = Self.queue(grouped: true).rows[0]
        let old = GroupSummary.Share(running)
        running.speed = nil
        running.bytesReceived = 400
        summary.replace(old, with: GroupSummary.Share(running))
        #expect(summary.speed == nil, "no running task with a sample is left")
        #expect(summary.done == 400 && summary.total == 2000)
    }

    @Test func theQueuesFiguresCountEachStateAndTheBackingOffApart() {
        let figures = QueueFigures(rows: [
            TestQueue.row(1, "a", .running, done: 512, total: 1024), TestQueue.row(2, "b", .waiting, retryIn: 30),
            TestQueue.row(3, "c", .waiting), TestQueue.row(4, "d", .failed), TestQueue.row(5, "e", .completed),
        ])
        #expect(figures.running == 1 && figures.retrying == 1 && figures.waiting == 1 && figures.failed == 1)
        #expect(figures.counted == 4 && figures.progress == 1.5 && figures.isAnimating)
        #expect(!QueueFigures(rows: [TestQueue.row(1, "a", .paused)]).isAnimating)
    }

    /// Sizes a lying server states, each at the most haul takes (`StatedSize.limit`): their sum passes an Int64.
    @Test func aGroupOfTheLargestStatedSizesSumsWithoutOverflow() {
        let rows = (1...4).map { id -> QueueSnapshot.Row in
            var row = TestQueue.row(Int64(id), "huge-\(id).bin", .paused, done: StatedSize.limit, total: StatedSize.limit)
            row.task.group = "links.txt"
            return row
        }
        var summary = GroupSummary(rows: rows, members: [0, 1, 2, 3])
        #expect(summary.total == Int64.max && summary.done == Int64.max, "shown clamped")
        summary.replace(GroupSummary.Share(rows[0]), with: GroupSummary.Share(TestQueue.row(1, "huge-1.bin", .paused, done: 0, total: nil)))
        #expect(summary.total == Int64.max && summary.fraction == 1)
    }
}
