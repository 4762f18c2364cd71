import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// Groups in the live list as values (DESIGN §12): one row with the group's figures, opened and closed with
/// Enter, → and ←, space and `x` on all of it, the filter and the order around it. No terminal.
@Suite struct GroupRowTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static func row(_ row: QueueSnapshot.Row, group: String?) -> QueueSnapshot.Row {
        var row = row
        row.task.group = group
        return row
    }

    /// Tasks 1–3 from `links.txt` (running, waiting, done), 4 on its own, 5 alone in its group (a plain row).
    static var queue: QueueSnapshot {
        QueueSnapshot(
            rows: [
                row(TestQueue.row(1, "a.bin", .running, done: 50, total: 100, speed: 10), group: "links.txt"),
                row(TestQueue.row(2, "b.bin", .waiting, done: 0, total: 200), group: "links.txt"),
                row(TestQueue.row(3, "c.bin", .completed, done: 100, total: 100), group: "links.txt"),
                TestQueue.row(4, "alone.iso", .waiting),
                row(TestQueue.row(5, "solo.bin", .paused), group: "solo"),
            ],
            maxConcurrent: 3, sequence: 1)
    }

    static let groupID = ShownGroup.rowID(leader: TaskID(1))

    static func context(_ state: UIState, _ snapshot: QueueSnapshot = queue) -> UIContext {
        UIContext(
            snapshot: snapshot, visibleRows: 10, downloadDirectory: TestQueue.directory, shown: state.view.shown(in: snapshot),
            marks: state.view.marks)
    }

    /// A key as the interactive loop hands it over: the context of the state's own view.
    static func press(_ key: KeyPress, _ state: UIState, _ snapshot: QueueSnapshot = queue) -> (UIState, [QueueCommand]) {
        state.handle(key, context: context(state, snapshot))
    }

    @Test func aGroupIsOneRowWithItsFiguresAndSingleTasksStayPlain() {
        let shown = ListView().shown(in: Self.queue)
        #expect(shown.downloading == [.group(0), .task(3), .task(4)])
        #expect(shown.groups.map(\.members) == [[0, 1, 2]])
        #expect(shown.taskCount(.downloading) == 5 && shown.totalDownloading == 5 && shown.completed.isEmpty)

        let summary = GroupSummary(rows: Self.queue.rows, members: [0, 1, 2])
        #expect(summary.state == .running)
        #expect(summary.done == 150 && summary.total == 400 && summary.speed == 10 && summary.completed == 1)

        let model = ViewModelBuilder().groupRow(shown.groups[0], rows: Self.queue.rows, frame: 0)
        #expect(model.id == Self.groupID)
        #expect(model.name == "▸ links.txt")
        #expect(model.connections == "1/3 done")
        #expect(model.percent == "37.5%")
        #expect(model.speed == ByteCountFormat.rate(10))
        #expect(model.stateRole == .stateRunning)
    }

    @Test func theGroupsStateIsRunningThenWaitingThenWhatAllAre() {
        #expect(GroupSummary.state(of: [.completed, .running, .paused]) == .running)
        #expect(GroupSummary.state(of: [.paused, .waiting]) == .waiting)
        #expect(GroupSummary.state(of: [.paused, .paused]) == .paused)
        #expect(GroupSummary.state(of: [.failed, .failed]) == .failed)
        #expect(GroupSummary.state(of: [.completed, .completed]) == .completed)
    }

    @Test func aGroupAllDoneIsInTheCompletedList() {
        var snapshot = Self.queue
        for index in 0..<2 { snapshot.rows[index].task.state = .completed }
        let shown = ListView().shown(in: snapshot)
        #expect(shown.completed == [.group(0)])
        #expect(shown.downloading == [.task(3), .task(4)])
    }

    @Test func enterAndRightOpenAGroupAndLeftClosesItFromOneOfItsTasks() {
        var state = UIState()
        state = state.synchronized(with: Self.context(state))
        #expect(state.cursor.selected == Self.groupID)

        (state, _) = Self.press(.enter, state)
        #expect(state.view.expanded == ["links.txt"])
        #expect(state.mode == .list, "a group's row has no details box")
        let open = Self.context(state)
        #expect(open.downloading.map(\.id) == [Self.groupID, TaskID(1), TaskID(2), TaskID(3), TaskID(4), TaskID(5)])
        #expect(open.downloading[1].group == "links.txt" && open.downloading[4].group == nil)
        let screen = TestQueue.screen(Self.queue, width: 80, state: state).lines().joined(separator: "\n")
        #expect(screen.contains("▾ links.txt") && screen.contains("  a.bin"))

        (state, _) = Self.press(.down, state)
        (state, _) = Self.press(.down, state)
        #expect(state.cursor.selected == TaskID(2))
        (state, _) = Self.press(.left, state)
        #expect(state.view.expanded.isEmpty)
        #expect(state.cursor.selected == Self.groupID)
        #expect(Self.context(state).downloading.count == 3)

        (state, _) = Self.press(.right, state)
        #expect(state.view.expanded == ["links.txt"])
        (state, _) = Self.press(.enter, state)
        #expect(state.view.expanded.isEmpty, "Enter on an open group closes it")
    }

    @Test func spaceOnAGroupPausesAllOfItIfAnyRunsElseResumesAll() {
        var state = UIState().synchronized(with: Self.context(UIState()))
        let (_, pausing) = Self.press(.character(" "), state)
        #expect(pausing == [.pause(TaskID(1)), .pause(TaskID(2))], "the completed task is left alone")
        // A second space in the same burst reads what the first asked for.
        let after = Self.context(state).applying(pausing)
        #expect(after.downloading[0].state == .paused)
        #expect(state.handle(.character(" "), context: after).1 == [.resume(TaskID(1)), .resume(TaskID(2))])

        var snapshot = Self.queue
        snapshot.rows[0].task.state = .paused
        snapshot.rows[1].task.state = .failed
        state = UIState().synchronized(with: Self.context(UIState(), snapshot))
        #expect(Self.press(.character(" "), state, snapshot).1 == [.resume(TaskID(1)), .resume(TaskID(2))])
    }

    @Test func removeOnAGroupAsksOnceThenRemovesAllOfIt() {
        var state = UIState().synchronized(with: Self.context(UIState()))
        (state, _) = Self.press(.character("x"), state)
        #expect(state.mode == .confirmBulk(BulkQuestion(
            kind: .removeGroup("links.txt"), tasks: [TaskID(1), TaskID(2), TaskID(3)], hasPartialFiles: true)))
        let (answered, commands) = Self.press(.character(RemoveKeys.keep), state)
        #expect(commands == [1, 2, 3].map { .remove(TaskID($0), deleteFile: false) })
        #expect(answered.mode == .list)
    }

    @Test func keysForOneTaskSendNothingForAGroupsRow() {
        let state = UIState().synchronized(with: Self.context(UIState()))
        for key: KeyPress in [.character("e"), .character("+"), .character("J")] {
            let (next, commands) = Self.press(key, state)
            #expect(commands.isEmpty)
            #expect(next.message?.text.contains("is a group") == true)
        }
    }

    @Test func clearAndRetryActOnAGroupsTasksNeverOnItsRow() {
        var snapshot = Self.queue
        snapshot.rows[0].task.state = .failed
        let state = UIState().synchronized(with: Self.context(UIState(), snapshot))
        #expect(Self.press(.character("R"), state, snapshot).1 == [.resume(TaskID(1))])

        for index in 0..<2 { snapshot.rows[index].task.state = .completed }
        var completed = UIState(list: .completed)
        completed = completed.synchronized(with: Self.context(completed, snapshot))
        let (asking, _) = Self.press(.character("C"), completed, snapshot)
        #expect(asking.mode == .confirmBulk(BulkQuestion(kind: .clearFinished, tasks: [TaskID(1), TaskID(2), TaskID(3)])))
        #expect(Self.context(completed, snapshot).taskCount(.completed) == 3)
    }

    @Test func pauseAllReadsIntoAGroupsRow() {
        let context = Self.context(UIState()).applying(.pauseAll)
        #expect(context.downloading[0].state == .paused)
        #expect(context.downloading[0].members.map(\.state) == [.paused, .paused, .completed])
    }

    @Test func aMarkOnAGroupMarksAllItsTasks() {
        var state = UIState().synchronized(with: Self.context(UIState()))
        (state, _) = Self.press(.character("m"), state)
        #expect(state.view.marks == [TaskID(1), TaskID(2), TaskID(3)])
        #expect(state.cursor.selected == TaskID(4), "marking walks down")
        state.cursor = UIState.Cursor(selected: Self.groupID, index: 0)
        (state, _) = Self.press(.character("m"), state)
        #expect(state.view.marks.isEmpty, "again: unmarks them")
    }

    @Test func theFilterKeepsAGroupWhoseNameOrAnyTaskMatches() {
        #expect(ListView(filter: "LINKS").shown(in: Self.queue).downloading == [.group(0)])
        let byTask = ListView(filter: "b.bin", expanded: ["links.txt"]).shown(in: Self.queue)
        #expect(byTask.downloading == [.group(0), .member(1, group: 0)], "its matching task alone beneath it")
        #expect(byTask.taskCount(.downloading) == 1)
        let byName = ListView(filter: "links", expanded: ["links.txt"]).shown(in: Self.queue)
        #expect(byName.downloading.count == 4, "its name matches: all its tasks")
        #expect(ListView(filter: "alone").shown(in: Self.queue).downloading == [.task(3)])
    }

    @Test func aGrowingFilterNarrowsGroupsAsAFullSearchDoes() {
        var snapshot = Self.queue
        snapshot.rows.append(Self.row(TestQueue.row(6, "b.iso", .waiting), group: "more.txt"))
        snapshot.rows.append(Self.row(TestQueue.row(7, "d.iso", .waiting), group: "more.txt"))
        for (from, to) in [("b", "b.bin"), ("l", "links"), ("l", "li-none"), ("i", "iso")] {
            var cache = ShownRowsCache()
            let view = ListView(filter: to, expanded: ["links.txt", "more.txt"])
            _ = cache.shown(snapshot, view: ListView(filter: from, expanded: view.expanded))
            #expect(cache.shown(snapshot, view: view) == view.shown(in: snapshot), "\(from) → \(to)")
        }
    }

    @Test func sortingOrdersTopLevelRowsAndAGroupsTasksKeepQueueOrder() {
        let byName = ListView(sort: .name, expanded: ["links.txt"]).shown(in: Self.queue)
        // alone.iso, links.txt (its tasks in queue order beneath it), solo.bin.
        #expect(byName.downloading == [.task(3), .group(0), .member(0, group: 0), .member(1, group: 0), .member(2, group: 0), .task(4)])
        let bySpeed = ListView(sort: .speed).shown(in: Self.queue)
        #expect(bySpeed.downloading.first == .group(0), "the only group that moves")
    }

    @Test func aGroupsNameIsEscapedWhereItIsShown() {
        var snapshot = Self.queue
        for index in 0..<3 { snapshot.rows[index].task.group = "evil\u{1B}[2J.txt" }
        let shown = ListView().shown(in: snapshot)
        let model = ViewModelBuilder().groupRow(shown.groups[0], rows: snapshot.rows, frame: 0)
        #expect(!model.name.containsControlCharacters)
        #expect(Self.context(UIState(), snapshot).downloading[0].name == "evil\\u{1B}[2J.txt")
    }

    @Test func theHelpAndTheFooterNameTheGroupKeys() {
        let lines = KeyBinding.helpSections.flatMap(\.entries).map { "\($0.keys) \($0.text)" }
        #expect(lines.contains { $0.hasPrefix("Enter/←/→ ") && $0.contains("group") })
        #expect(KeyBinding.footerItems(in: .list).contains { $0.keys == "←/→" && $0.label == "group" })
    }
}
