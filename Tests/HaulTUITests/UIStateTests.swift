import HaulCore
import Testing
@testable import HaulTUI

/// Key → action → UI state (and the command sent to the controller).
@Suite struct UIStateTests {
    typealias Ref = UIContext.RowRef

    static func refs(_ ids: [Int64], state: TaskState = .running) -> [Ref] {
        ids.map { Ref(id: TaskID($0), state: state, name: "task-\($0)") }
    }

    static func context(_ downloading: [Ref], completed: [Ref] = [], visibleRows: Int = 3, maxConcurrent: Int = 3) -> UIContext {
        UIContext(downloading: downloading, completed: completed, visibleRows: visibleRows, maxConcurrent: maxConcurrent, downloadDirectory: "/dl")
    }

    /// Presses keys in order; returns the final state and every command sent.
    static func press(_ keys: [KeyPress], from state: UIState = UIState(), in context: UIContext) -> (UIState, [QueueCommand]) {
        var state = state
        var commands: [QueueCommand] = []
        for key in keys {
            let (next, command) = state.reduce(key, context: context)
            state = next
            if let command { commands.append(command) }
        }
        return (state, commands)
    }

    static func type(_ text: String) -> [KeyPress] { text.map { .character($0) } }

    // MARK: Schedule

    @Test func zSetsTheScheduleAsideAndTakesItUpAgain() {
        var context = Self.context(Self.refs([1]))
        let (idle, none) = Self.press([.character("z")], in: context)
        #expect(none.isEmpty && idle.message?.text.contains("haul schedule") == true)
        context.schedule = "scheduled: resumes at 01:00"
        #expect(Self.press([.character("z")], in: context).1 == [.suspendSchedule(true)])
        context.scheduleSuspended = true
        #expect(Self.press([.character("z")], in: context).1 == [.suspendSchedule(false)])
    }

    // MARK: Selection

    @Test func selectionFollowsTheTaskIdWhenRowsAreInsertedAbove() {
        let before = Self.context(Self.refs([1, 2, 3, 4]))
        let (state, _) = Self.press([.down, .down], in: before)
        #expect(state.cursor.selected == TaskID(3))
        let after = Self.context(Self.refs([9, 8, 1, 2, 3, 4]))
        let synced = state.synchronized(with: after)
        #expect(synced.cursor.selected == TaskID(3))
        #expect(synced.cursor.index == 4)
        #expect(synced.cursor.top == 2, "scrolls just enough to keep it visible")
    }

    @Test func aVanishedTaskHandsTheSelectionToTheRowNowInItsPlace() {
        let (state, _) = Self.press([.down], in: Self.context(Self.refs([1, 2, 3])))
        #expect(state.cursor.selected == TaskID(2))
        let synced = state.synchronized(with: Self.context(Self.refs([1, 3])))
        #expect(synced.cursor.selected == TaskID(3))
        let last = synced.synchronized(with: Self.context(Self.refs([1])))
        #expect(last.cursor.selected == TaskID(1))
        let empty = last.synchronized(with: Self.context([]))
        #expect(empty.cursor == UIState.Cursor())
    }

    @Test func navigationKeysClampAndScroll() {
        let context = Self.context(Self.refs(Array(1...10)), visibleRows: 3)
        var (state, _) = Self.press([.end], in: context)
        #expect(state.cursor.selected == TaskID(10))
        #expect(state.cursor.top == 7)
        (state, _) = Self.press([.pageUp], from: state, in: context)
        #expect(state.cursor.index == 7)
        #expect(state.cursor.top == 7)
        (state, _) = Self.press([.up, .character("k")], from: state, in: context)
        #expect(state.cursor.index == 5)
        #expect(state.cursor.top == 5)
        (state, _) = Self.press([.home, .up], from: state, in: context)
        #expect(state.cursor.index == 0)
        (state, _) = Self.press([.pageDown, .character("j")], from: state, in: context)
        #expect(state.cursor.selected == TaskID(4))
        (state, _) = Self.press([.character("G"), .down], from: state, in: context)
        #expect(state.cursor.selected == TaskID(10))
    }

    @Test func tabSwitchesListsAndEachListKeepsItsSelection() {
        let context = Self.context(Self.refs([1, 2, 3]), completed: Self.refs([7, 8], state: .completed))
        var (state, _) = Self.press([.down, .tab, .down], in: context)
        #expect(state.list == .completed)
        #expect(state.cursor.selected == TaskID(8))
        (state, _) = Self.press([.tab], from: state, in: context)
        #expect(state.list == .downloading)
        #expect(state.cursor.selected == TaskID(2))
    }

    // MARK: Commands

    @Test func spaceAndPPauseRunningResumePausedAndRetryFailed() {
        let rows = [
            Ref(id: TaskID(1), state: .running, name: "a"), Ref(id: TaskID(2), state: .waiting, name: "b"),
            Ref(id: TaskID(3), state: .paused, name: "c"), Ref(id: TaskID(4), state: .failed, name: "d"),
        ]
        let (_, commands) = Self.press([.character(" "), .down, .character("p"), .down, .character(" "), .down, .character("p")], in: Self.context(rows))
        #expect(commands == [.pause(TaskID(1)), .pause(TaskID(2)), .resume(TaskID(3)), .resume(TaskID(4))])
    }

    @Test func completedTasksCannotBePausedOrMoved() {
        let context = Self.context([], completed: Self.refs([5], state: .completed))
        let (state, commands) = Self.press([.tab, .character(" ")], in: context)
        #expect(commands.isEmpty)
        #expect(state.message?.text == "task-5 is complete")
        let (moved, moveCommands) = Self.press([.character("J")], from: state, in: context)
        #expect(moveCommands.isEmpty)
        #expect(moved.message?.text == "completed tasks have no place in the queue")
    }

    @Test func queueWideKeysAndMoves() {
        let (_, commands) = Self.press(
            [.character("P"), .character("S"), .down, .character("J"), .character("K")], in: Self.context(Self.refs([1, 2, 3])))
        #expect(commands == [.pauseAll, .startAll, .move(TaskID(2), by: 1), .move(TaskID(2), by: -1)])
    }

    @Test func concurrencyLimitChangesLiveWithinBounds() {
        var (state, commands) = Self.press([.character(">")], in: Self.context(Self.refs([1]), maxConcurrent: 3))
        #expect(commands == [.setMaxConcurrent(4)])
        #expect(state.message?.text == "up to 4 downloads at a time")
        (state, commands) = Self.press([.character("<")], in: Self.context(Self.refs([1]), maxConcurrent: 1))
        #expect(commands.isEmpty)
        #expect(state.message?.text == "up to 1 download at a time")
        (_, commands) = Self.press([.character(">")], in: Self.context(Self.refs([1]), maxConcurrent: ConcurrencyLimit.range.upperBound))
        #expect(commands.isEmpty)
    }

    @Test func quitHelpAndUnknownKeys() {
        let context = Self.context(Self.refs([1]))
        var (state, _) = Self.press([.character("?")], in: context)
        #expect(state.mode == .help)
        (state, _) = Self.press([.character("q")], from: state, in: context)
        #expect(state.mode == .list)
        #expect(!state.quitRequested, "q closes the help first")
        (state, _) = Self.press([.character("y")], from: state, in: context)
        #expect(state.message?.text == "y does nothing here — press ? for the keys")
        (state, _) = Self.press([.down], from: state, in: context)
        #expect(state.message == nil, "a message lasts until the next key")
        (state, _) = Self.press([.character("q")], from: state, in: context)
        #expect(state.quitRequested)
    }

    @Test func detailsFollowTheSelectionAndCloseWithEsc() {
        let context = Self.context(Self.refs([1, 2]))
        var (state, commands) = Self.press([.enter, .down, .character(" ")], in: context)
        #expect(state.mode == .details)
        #expect(state.cursor.selected == TaskID(2))
        #expect(commands.isEmpty, "only navigation works under the details pane")
        (state, _) = Self.press([.escape], from: state, in: context)
        #expect(state.mode == .list)
        let (empty, _) = Self.press([.enter], in: Self.context([]))
        #expect(empty.mode == .list, "nothing to show")
    }

    // MARK: Scrolling help and details

    static func scrolling(_ context: UIContext, page: Int, maxOffset: Int) -> UIContext {
        var context = context
        context.overlayScroll = OverlayScroll(page: page, maxOffset: maxOffset)
        return context
    }

    @Test func helpScrollsByLineAndPageWithinTheContentAndAnyOtherKeyCloses() {
        let context = Self.scrolling(Self.context(Self.refs([1])), page: 9, maxOffset: 30)
        var (state, commands) = Self.press([.character("?"), .down, .character("j")], in: context)
        #expect(state.mode == .help)
        #expect(state.helpScroll == 2)
        (state, _) = Self.press([.up], from: state, in: context)
        #expect(state.helpScroll == 1)
        (state, _) = Self.press([.pageDown], from: state, in: context)
        #expect(state.helpScroll == 9, "a page is the box less one line")
        (state, _) = Self.press([.character(" ")], from: state, in: context)
        #expect(state.helpScroll == 17)
        (state, _) = Self.press([.end, .down, .down], from: state, in: context)
        #expect(state.helpScroll == 30, "never past the last page")
        (state, _) = Self.press([.pageUp], from: state, in: context)
        #expect(state.helpScroll == 22, "the first key back moves at once")
        (state, _) = Self.press([.home, .up, .character("k")], from: state, in: context)
        #expect(state.helpScroll == 0)
        (state, commands) = Self.press([.end, .character("x")], from: state, in: context)
        #expect(state.mode == .list, "a key help does not use closes it")
        #expect(commands.isEmpty, "and does nothing else")
        (state, _) = Self.press([.character("?")], from: state, in: context)
        #expect(state.helpScroll == 0, "help opens at the top")
        (state, _) = Self.press([.escape], from: state, in: context)
        #expect(state.mode == .list)
        #expect(!state.quitRequested)
    }

    @Test func detailsPageWithPgUpPgDnAndStartAtTheTopForAnotherTask() {
        let context = Self.scrolling(Self.context(Self.refs([1, 2, 3])), page: 9, maxOffset: 12)
        var (state, commands) = Self.press([.enter, .pageDown], in: context)
        #expect(state.mode == .details)
        #expect(state.detailsScroll == 8)
        (state, _) = Self.press([.pageDown, .pageDown], from: state, in: context)
        #expect(state.detailsScroll == 12)
        (state, _) = Self.press([.pageUp], from: state, in: context)
        #expect(state.detailsScroll == 4)
        #expect(state.cursor.selected == TaskID(1), "paging scrolls the box, not the list")
        (state, _) = Self.press([.end], from: state, in: context)
        #expect(state.detailsScroll == 12)
        (state, commands) = Self.press([.down], from: state, in: context)
        #expect(state.cursor.selected == TaskID(2))
        #expect(state.detailsScroll == 0, "another task's details start at the top")
        (state, _) = Self.press([.end, .home], from: state, in: context)
        #expect(state.detailsScroll == 0)
        (state, _) = Self.press([.end, .enter, .enter], from: state, in: context)
        #expect(state.mode == .details)
        #expect(state.detailsScroll == 0, "details open at the top")
        #expect(state.helpScroll == 0, "details never move the help")
        #expect(commands.isEmpty)
    }

    @Test func withoutTheBoxSizeTheReducerPagesByTheScreenAndNeverOverflows() {
        let context = Self.context(Self.refs([1]), visibleRows: 7)
        var (state, _) = Self.press([.character("?"), .pageDown], in: context)
        #expect(state.helpScroll == 8, "a box as tall as the screen above the footer: 7 rows + 2, less one")
        (state, _) = Self.press([.end, .down, .pageDown], from: state, in: context)
        #expect(state.helpScroll == Int.max, "the renderer clamps; the reducer saturates")
        let extent = OverlayScroll(page: 9, maxOffset: 5)
        #expect(extent.offset(after: .scrollUp, from: Int.max) == 4, "an offset from a taller screen is clamped first")
        #expect(extent.offset(after: .scrollPageDown, from: -3) == 5)
        #expect(OverlayScroll(page: 0, maxOffset: -2) == OverlayScroll(page: 1, maxOffset: 0))
    }

    // MARK: Remove

    @Test func removeAsksThenKeepsOrDeletesThePartialFile() {
        let context = Self.context(Self.refs([1, 2]))
        var (state, commands) = Self.press([.character("x")], in: context)
        #expect(state.mode == .confirmRemove(TaskID(1)))
        (state, commands) = Self.press([.character("y")], from: state, in: context)
        #expect(commands == [.remove(TaskID(1), deleteFile: false)])
        #expect(state.mode == .list)
        (_, commands) = Self.press([.delete, .character("f")], in: context)
        #expect(commands == [.remove(TaskID(1), deleteFile: true)])
        (state, commands) = Self.press([.character("x"), .character("a"), .character("n")], in: context)
        #expect(commands.isEmpty)
        #expect(state.mode == .list)
        (_, commands) = Self.press([.character("x"), .escape], in: context)
        #expect(commands.isEmpty)
    }

    @Test func removingACompletedTaskNeverDeletesItsFile() {
        let context = Self.context([], completed: Self.refs([5], state: .completed))
        var (state, commands) = Self.press([.tab, .character("x"), .character("f")], in: context)
        #expect(commands.isEmpty)
        #expect(state.mode == .confirmRemove(TaskID(5)))
        (state, commands) = Self.press([.character("y")], from: state, in: context)
        #expect(commands == [.remove(TaskID(5), deleteFile: false)])
    }

    @Test func theQuestionClosesWhenItsTaskDisappears() {
        let (state, _) = Self.press([.character("x")], in: Self.context(Self.refs([1, 2])))
        #expect(state.synchronized(with: Self.context(Self.refs([2]))).mode == .list)
    }

    // MARK: Add prompt

    @Test func promptEditsUTF8TextByGrapheme() {
        let context = Self.context([])
        var (state, _) = Self.press([.character("a")] + Self.type("https://例え.jp/ファイルe\u{301}"), in: context)
        #expect(state.mode == .prompt(PromptField("https://例え.jp/ファイルe\u{301}")))
        (state, _) = Self.press([.backspace, .left, .left, .character("X"), .home, .delete, .end, .character("!")], from: state, in: context)
        guard case let .prompt(field) = state.mode else { Issue.record("prompt closed"); return }
        #expect(field.text == "ttps://例え.jp/ファXイル!")
        #expect(field.cursor == field.characters.count)
        (state, _) = Self.press([.left, .control("w")], from: state, in: context)
        guard case let .prompt(cut) = state.mode else { Issue.record("prompt closed"); return }
        #expect(cut.text == "!")
        (state, _) = Self.press([.end, .control("u")], from: state, in: context)
        #expect(state.mode == .prompt(PromptField("")))
    }

    @Test func escCancelsThePromptWithoutACommand() {
        let (state, commands) = Self.press([.character("a")] + Self.type("https://x.org/f") + [.escape], in: Self.context([]))
        #expect(state.mode == .list)
        #expect(commands.isEmpty)
    }

    @Test func enterAddsValidURLsIntoTheDownloadDirectory() {
        let (state, commands) = Self.press([.character("a")] + Self.type("https://example.org/電影.mp4") + [.enter], in: Self.context([]))
        #expect(commands == [.add([NewTask(url: "https://example.org/%E9%9B%BB%E5%BD%B1.mp4", directory: "/dl")])])
        #expect(state.mode == .list)
        #expect(state.message?.text == "added https://example.org/%E9%9B%BB%E5%BD%B1.mp4")
    }

    @Test func theAddedMessageShowsNoCredentials() {
        let (state, commands) = Self.press([.character("a")] + Self.type("https://alice:hunter2@example.org/f") + [.enter], in: Self.context([]))
        #expect(commands.count == 1)
        #expect(state.message?.text == "added https://example.org/f")
    }

    @Test func aBadURLIsRefusedWithAMessageAndThePromptStays() {
        for (text, message) in [
            ("ftp://example.org/f", "'ftp' URLs are not downloaded; only http and https are allowed"),
            ("example.org/f", "'example.org/f' is not a valid http(s) URL — check it and add it again"),
            ("https:///nohost", "'https:///nohost' is not a valid http(s) URL — check it and add it again"),
            ("http://a b", "'b' is not a valid http(s) URL — check it and add it again"),
            ("http://example.org:70000/f", "'http://example.org:70000/f' is not a valid http(s) URL — check it and add it again"),
        ] {
            let (state, commands) = Self.press([.character("a")] + Self.type(text) + [.enter], in: Self.context([]))
            #expect(commands.isEmpty, "\(text)")
            #expect(state.message == UIState.Message(message, isError: true), "\(text)")
            #expect(state.mode == .prompt(PromptField(text)), "\(text)")
        }
    }

    @Test func aPasteAddsEachCompleteLineAndKeepsTheRestInThePrompt() {
        let first = NewTask(url: "https://a.org/1", directory: "/dl"), second = NewTask(url: "https://b.org/2", directory: "/dl")
        let (state, commands) = Self.press([.paste("https://a.org/1\nhttps://b.org/2\r\n")], in: Self.context([]))
        #expect(commands == [.add([first, second])])
        #expect(state.mode == .list && state.message?.text == "added 2 URLs")
        let (partial, partialCommands) = Self.press([.paste("https://a.org/1\nhttps://c.org/3")], in: Self.context([]))
        #expect(partialCommands == [.add([first])])
        #expect(partial.mode == .prompt(PromptField("https://c.org/3")))
        let (typed, typedCommands) = Self.press([.paste("https://a.org/1")], in: Self.context([]))
        #expect(typedCommands.isEmpty && typed.mode == .prompt(PromptField("https://a.org/1")))
        // A bad line adds nothing and keeps the text for fixing.
        let (bad, badCommands) = Self.press([.paste("ftp://x/y\n")], in: Self.context([]))
        #expect(badCommands.isEmpty && bad.message?.isError == true)
    }

    @Test func enterOnAnEmptyPromptJustClosesIt() {
        let (state, commands) = Self.press([.character("a"), .character(" "), .enter], in: Self.context([]))
        #expect(state.mode == .list)
        #expect(commands.isEmpty)
    }

    @Test func listKeysTypeIntoThePromptInsteadOfActing() {
        let (state, commands) = Self.press([.character("a")] + Self.type("qxP ") + [.tab], in: Self.context(Self.refs([1])))
        #expect(commands.isEmpty)
        #expect(!state.quitRequested)
        #expect(state.mode == .prompt(PromptField("qxP ")))
    }
}
