import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// The reducer's view of a long queue (issue 29): a context holds the shown lines and the snapshot's rows, and makes a
/// row's reference when a key reads it; neither the list nor a group's row holds 10,000 references. Counted in
/// references held (`UIContext.RowList.referencesHeld`).
@Suite struct RowListTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    static let size = 10_000

    /// 10,000 paused tasks of one group (as `haul add -i` makes them) and one task on its own.
    static var queue: QueueSnapshot {
        var rows = (1...size).map { id -> QueueSnapshot.Row in
            var row = TestQueue.row(Int64(id), "file-\(id).bin", .paused, done: 0, total: 1000)
            row.task.group = "links.txt"
            return row
        }
        rows.append(TestQueue.row(Int64(size + 1), "alone.iso", .waiting))
        return QueueSnapshot(rows: rows, maxConcurrent: 1, sequence: 1)
    }

    static func context(_ state: UIState, _ snapshot: QueueSnapshot) -> UIContext {
        UIContext(
            snapshot: snapshot, visibleRows: 20, downloadDirectory: TestQueue.directory, shown: state.view.shown(in: snapshot),
            marks: state.view.marks)
    }

    @Test("a context over an open group of 10,000 tasks holds no row's reference, and reads each as the snapshot has it")
    func contextHoldsNoReferences() {
        let snapshot = Self.queue
        let state = UIState(view: ListView(expanded: ["links.txt"]))
        let context = Self.context(state, snapshot)
        #expect(context.downloading.count == Self.size + 2)
        #expect(context.downloading.referencesHeld == 0)
        let group = context.downloading[0]
        #expect(group.isGroup && group.group == "links.txt" && group.state == .paused)
        #expect(group.members.count == Self.size && group.members.referencesHeld == 0)
        #expect(group.members[9].id == TaskID(10) && group.members[9].group == nil)
        let member = context.downloading[10]
        #expect(member.id == TaskID(10) && member.group == "links.txt" && member.name == "file-10.bin" && member.isMember)
        #expect(context.downloading.last?.id == TaskID(Int64(Self.size + 1)))
        #expect(context.taskCount(.downloading) == Self.size + 1)
    }

    @Test("keys on a long list: the cursor moves, space on the group resumes its 10,000 tasks, marks act on theirs")
    func keysOnALongList() {
        let snapshot = Self.queue
        var state = UIState()
        state = state.synchronized(with: Self.context(state, snapshot))
        #expect(state.cursor.selected == ShownGroup.rowID(leader: TaskID(1)))
        var (next, commands) = state.handle(.character("j"), context: Self.context(state, snapshot))
        #expect(next.cursor.selected == TaskID(Int64(Self.size + 1)) && commands.isEmpty)
        (next, commands) = next.handle(.character("k"), context: Self.context(next, snapshot))
        (next, commands) = next.handle(.character(" "), context: Self.context(next, snapshot))
        #expect(commands.count == Self.size && commands.first == .resume(TaskID(1)))
        (next, commands) = next.handle(.character("m"), context: Self.context(next, snapshot))
        #expect(next.view.marks.count == Self.size)
    }

    @Test("a list a command changes holds its references, changed; the others still make theirs as read")
    func changedListHoldsReferences() {
        let snapshot = Self.queue
        let context = Self.context(UIState(), snapshot)
        let resumed = context.applying(.resume(TaskID(Int64(Self.size + 1))))
        #expect(resumed.downloading == context.downloading, "a waiting task's resume changes nothing")
        let paused = context.applying(.pause(TaskID(Int64(Self.size + 1))))
        #expect(paused.downloading.referencesHeld == 2 && paused.downloading[1].state == .paused)
        #expect(paused.completed.referencesHeld == 0 && context.downloading.referencesHeld == 0)
        let removed = context.applying(.remove(TaskID(Int64(Self.size + 1)), deleteFile: false))
        #expect(removed.downloading.map(\.id) == [ShownGroup.rowID(leader: TaskID(1))])
    }
}
