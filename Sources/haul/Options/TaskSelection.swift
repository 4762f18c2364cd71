import ArgumentParser

/// Task ids or `--all`, shared by pause, resume and remove.
struct TaskSelection: ParsableArguments {
    @Argument(help: "Task ids (see `haul list`).", completion: .custom(TaskCompletion.candidates)) var ids: [Int64] = []
    @Flag(help: "Every task.") var all = false

    /// The ids given, each once, in the order given (`haul remove 1 1` removes #1 once).
    var uniqueIDs: [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError("give task ids or --all (not both)") }
    }
}
