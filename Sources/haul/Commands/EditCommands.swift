import ArgumentParser

/// `haul pause ID... | --all`.
struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause tasks (the partial file is kept).")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() async throws { try await TaskEdit.apply(.pause, to: selection, state: state) }
}

/// `haul resume ID... | --all`.
struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume paused tasks, retry failed ones.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() async throws { try await TaskEdit.apply(.resume, to: selection, state: state) }
}

/// `haul remove ID... | --all [--delete-file]`.
struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove tasks from the queue.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    @Flag(name: .customLong("delete-file"), help: "Also delete the partial file (finished files are never deleted).")
    var deleteFile = false
    func run() async throws { try await TaskEdit.apply(.remove(deleteFile: deleteFile), to: selection, state: state) }
}
