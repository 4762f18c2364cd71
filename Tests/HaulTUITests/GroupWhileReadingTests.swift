import Foundation
import HaulCore
import Testing
@testable import HaulTUI

/// A group's keys while a long queue is still read (issue 29: the list shows its first tasks first): they act on all
/// of the group, so they wait for the rest of it rather than act on the part read so far.
@Suite struct GroupWhileReadingTests {
    init() { setlocale(LC_CTYPE, "C.UTF-8") }

    @Test func aGroupsKeysWaitForTheRestOfTheQueue() {
        var partial = GroupRowTests.queue
        partial.rowsToCome = 40
        var state = UIState()
        state = state.synchronized(with: GroupRowTests.context(state, partial))
        #expect(state.cursor.selected == GroupRowTests.groupID)
        for key in [" ", "x", "m"] {
            let (next, commands) = GroupRowTests.press(.character(Character(key)), state, partial)
            #expect(commands.isEmpty && next.mode == state.mode && next.view.marks.isEmpty, "\(key)")
            #expect(next.message?.text.contains("40 tasks still to read") == true, "\(key): \(String(describing: next.message))")
        }
        // Every task read: the same space pauses the group.
        let (_, pausing) = GroupRowTests.press(.character(" "), state, GroupRowTests.queue)
        #expect(pausing.count == 2)
    }
}
