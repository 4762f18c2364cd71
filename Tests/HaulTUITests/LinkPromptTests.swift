import HaulCore
import Testing
@testable import HaulTUI

/// The list's `e`: a new link for the selected task on a prompt filled with the current one (DESIGN §8).
@Suite struct LinkPromptTests {
    typealias Ref = UIContext.RowRef

    static func context(_ row: Ref) -> UIContext {
        UIContext(downloading: row.state.isUnfinished ? [row] : [], completed: row.state.isUnfinished ? [] : [row],
                  visibleRows: 5, maxConcurrent: 3, downloadDirectory: "/dl")
    }

    static func selected(_ id: Int64, list: UIState.ListKind = .downloading) -> UIState {
        var state = UIState(list: list)
        state.select(0, in: [Ref(id: TaskID(id), state: .paused, name: "")])
        return state
    }

    let row = Ref(id: TaskID(4), state: .paused, name: "film.mkv", url: "http://127.0.0.1/old.mkv")

    @Test func ePrefillsTheLinkAndEnterSetsTheNewOne() {
        let context = Self.context(row)
        let (prompt, _) = UIStateTests.press([.character("e")], from: Self.selected(4), in: context)
        guard case let .prompt(field) = prompt.mode else {
            Issue.record("e opened no prompt: \(prompt.mode)")
            return
        }
        #expect(field.text == "http://127.0.0.1/old.mkv")
        #expect(field.linkOf == TaskID(4))
        let keys: [KeyPress] = [.control("u")] + "http://127.0.0.1/new.mkv".map { .character($0) } + [.enter]
        let (after, commands) = UIStateTests.press(keys, from: prompt, in: context)
        #expect(commands == [.setURL(TaskID(4), url: "http://127.0.0.1/new.mkv", change: .sameFile)])
        #expect(after.mode == .list)
    }

    @Test func aBadLinkKeepsThePromptWithTheReason() {
        let context = Self.context(row)
        let keys: [KeyPress] = [.character("e"), .control("u")] + "ftp://x/y".map { .character($0) } + [.enter]
        let (state, commands) = UIStateTests.press(keys, from: Self.selected(4), in: context)
        #expect(commands.isEmpty)
        #expect(state.mode.isPrompt)
        #expect(state.message?.isError == true)
        #expect(state.message?.text.contains("ftp") == true)
    }

    @Test func theSameLinkAfterARefusalAsksWhatToDoWithTheBytes() {
        var refused = row
        refused.state = .failed
        refused.linkChange = .sameFile
        let context = Self.context(refused)
        let (asking, _) = UIStateTests.press([.character("e"), .enter], from: Self.selected(4), in: context)
        #expect(asking.mode == .confirmLink(TaskID(4)))
        #expect(UIStateTests.press([.character("k")], from: asking, in: context).1
            == [.setURL(TaskID(4), url: "http://127.0.0.1/old.mkv", change: .keepBytes)])
        #expect(UIStateTests.press([.character("r")], from: asking, in: context).1
            == [.setURL(TaskID(4), url: "http://127.0.0.1/old.mkv", change: .restart)])
        let (cancelled, none) = UIStateTests.press([.escape], from: asking, in: context)
        #expect(none.isEmpty && cancelled.mode == .list)
    }

    @Test func aCompletedTaskKeepsItsLink() {
        var done = row
        done.state = .completed
        let (state, commands) = UIStateTests.press([.character("e")], from: Self.selected(4, list: .completed), in: Self.context(done))
        #expect(commands.isEmpty)
        #expect(state.mode == .list)
        #expect(state.message?.text.contains("complete") == true)
    }
}
