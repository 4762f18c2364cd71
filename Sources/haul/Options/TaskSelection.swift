import ArgumentParser

/// Task ids or `--all`, shared by pause, resume and remove.
struct TaskSelection: ParsableArguments {
    @Argument(help: "Task ids (see `haul list`).", completion: .custom(TaskCompletion.candidates)) var ids: [Int64] = []
    @Flag(help: "Every task.") var all = false

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError("give task ids or --all (not both)") }
    }
}
