import ArgumentParser
import HaulCore

/// Task ids or `--all`, shared by pause, resume and remove; a command may also choose every task in one state
/// (`remove --completed`, `resume --failed`), and then checks the choice itself (`check(byState:)`).
struct TaskSelection: ParsableArguments {
    @Argument(help: "Task ids (see `haul list`).", completion: .custom(TaskCompletion.candidates)) var ids: [Int64] = []
    @Flag(help: "Every task.") var all = false

    /// The ids given, each once, in the order given (`haul remove 1 1` removes #1 once).
    var uniqueIDs: [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }

    /// Exactly one way of choosing: ids, `--all`, or the command's state flag (`byState`).
    func check(byState: String? = nil) throws {
        let ways = [!ids.isEmpty, all, byState != nil].filter { $0 }.count
        guard ways == 1 else {
            throw ValidationError("give task ids, --all" + (byState.map { " or \($0)" } ?? "") + " (one of them)")
        }
    }
}

/// The tasks an edit acts on, as its command chose them.
struct TaskChoice {
    var ids: [TaskID] = []
    /// Every task (the edit applies where it can).
    var all = false
    /// Every task in this state.
    var state: TaskState?

    init(_ selection: TaskSelection, state: TaskState? = nil) {
        ids = selection.uniqueIDs.map(TaskID.init)
        all = selection.all
        self.state = state
    }

    /// True when the choice names no task itself (it is `--all` or a state).
    var isBulk: Bool { all || state != nil }
}
