import ArgumentParser
import HaulCore

/// `haul pause ID... | --all`.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause tasks (the partial file is kept).")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func validate() throws { try selection.check() }
    func run() async throws { try await TaskEdit.apply(.pause, to: TaskChoice(selection), state: state) }
}

/// `haul resume ID... | --all | --failed`.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume paused tasks, retry failed ones.")
    @OptionGroup var selection: TaskSelection
    @Flag(help: "Retry every failed task.") var failed = false
    @OptionGroup var state: StateOptions
    func validate() throws { try selection.check(byState: failed ? "--failed" : nil) }
    func run() async throws {
        try await TaskEdit.apply(.resume, to: TaskChoice(selection, state: failed ? .failed : nil), state: state)
    }
}

/// `haul remove ID... | --all | --completed [--delete-file]`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove tasks from the queue.")
    @OptionGroup var selection: TaskSelection
    @Flag(help: "Remove every completed task from the list (the files stay).") var completed = false
    @OptionGroup var state: StateOptions
    @Flag(name: .customLong("delete-file"), help: "Also delete the partial file (finished files are never deleted).")
    var deleteFile = false
    func validate() throws { try selection.check(byState: completed ? "--completed" : nil) }
    func run() async throws {
        try await TaskEdit.apply(
            .remove(deleteFile: deleteFile), to: TaskChoice(selection, state: completed ? .completed : nil), state: state)
    }
}
