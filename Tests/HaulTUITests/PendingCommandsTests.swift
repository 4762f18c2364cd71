import HaulCore
import Testing
@testable import HaulTUI

/// Keys pressed in one burst, before the controller has answered: each one acts.
@Suite struct PendingCommandsTests {
    typealias Ref = UIContext.RowRef

    static let base = UIContext(
        downloading: [Ref(id: TaskID(1), state: .running, name: "a"), Ref(id: TaskID(2), state: .waiting, name: "b")],
        completed: [], visibleRows: 5, maxConcurrent: 3, downloadDirectory: "/dl")

    /// Presses keys as the interactive loop does within one burst: the snapshot (`base`) stays the same.
    static func burst(_ keys: [KeyPress], over base: UIContext = base, pending: inout PendingCommands,
                      at now: ContinuousClock.Instant) -> [QueueCommand] {
        var state = UIState()
        var commands: [QueueCommand] = []
        for key in keys {
            let (next, command) = state.reduce(key, context: pending.context(over: base, now: now))
            state = next
            if let command {
                pending.sent(command, at: now)
                commands.append(command)
            }
        }
        return commands
    }

    @Test func threeRaisesInABurstRaiseTheLimitByThree() {
        var pending = PendingCommands()
        let commands = Self.burst([">", ">", ">"].map { .character($0) }, pending: &pending, at: .now)
        #expect(commands == [.setMaxConcurrent(4), .setMaxConcurrent(5), .setMaxConcurrent(6)])
    }

    @Test func spacesInABurstTogglePauseEachTime() {
        var pending = PendingCommands()
        let commands = Self.burst([" ", " ", " "].map { .character($0) }, pending: &pending, at: .now)
        #expect(commands == [.pause(TaskID(1)), .resume(TaskID(1)), .pause(TaskID(1))])
    }

    @Test func aPasteStillGoesToThePrompt() {
        var pending = PendingCommands()
        let keys: [KeyPress] = [.character("a")] + "http://h/> x".map { .character($0) }
        var state = UIState()
        for key in keys { state = state.reduce(key, context: pending.context(over: Self.base, now: .now)).0 }
        #expect(state.mode == .prompt(PromptField("http://h/> x")))
        #expect(pending.isEmpty)
    }

    @Test func forgottenOnceTheSnapshotShowsThem() {
        var pending = PendingCommands()
        let now = ContinuousClock.now
        _ = Self.burst([.character(">"), .character(">")], pending: &pending, at: now)
        // The controller has done the first: the second still shows.
        var half = Self.base
        half.maxConcurrent = 4
        #expect(pending.context(over: half, now: now).maxConcurrent == 5)
        #expect(!pending.isEmpty)
        var done = Self.base
        done.maxConcurrent = 5
        #expect(pending.context(over: done, now: now) == done)
        #expect(pending.isEmpty)
    }

    @Test func forgottenAfterPatienceWhenRefused() {
        var pending = PendingCommands()
        let now = ContinuousClock.now
        _ = Self.burst([.character(">")], pending: &pending, at: now)
        #expect(pending.context(over: Self.base, now: now + .milliseconds(500)).maxConcurrent == 4)
        #expect(pending.context(over: Self.base, now: now + PendingCommands.patience + .milliseconds(1)) == Self.base)
        #expect(pending.isEmpty)
    }

    @Test func removedRowsAreGoneForTheNextKey() {
        let context = Self.base.applying(.remove(TaskID(1), deleteFile: false))
        #expect(context.downloading.map(\.id) == [TaskID(2)])
        #expect(Self.base.applying(.pauseAll).downloading.map(\.state) == [.paused, .paused])
        #expect(Self.base.applying(.pauseAll).applying(.startAll).downloading.map(\.state) == [.waiting, .waiting])
    }

    /// C on 10,000 finished rows sends 10,000 removes: the next key reads them in one pass, not one pass each (which
    /// took minutes), and a second space on marks resumes what the first paused.
    @Test func tenThousandCommandsApplyInOnePass() {
        let completed = (1...10_000).map { UIContext.RowRef(id: TaskID(Int64($0)), state: .completed, name: "f\($0)") }
        let base = UIContext(downloading: [], completed: completed, visibleRows: 8, maxConcurrent: 3, downloadDirectory: "/d")
        let removes = completed.map { QueueCommand.remove($0.id, deleteFile: false) }
        let clock = ContinuousClock()
        var applied = base
        let took = clock.measure { applied = base.applying(removes) }
        #expect(applied.completed.isEmpty)
        #expect(took < .seconds(2), "\(took)")

        var marked = UIContext(
            downloading: [UIContext.RowRef(id: TaskID(1), state: .running, name: "a")], completed: [], visibleRows: 8, maxConcurrent: 3,
            downloadDirectory: "/d")
        marked.marked = Array(marked.downloading)
        let paused = marked.applying([.pause(TaskID(1))])
        #expect(paused.marked.first?.state == .paused && paused.downloading.first?.state == .paused)
    }
}
