import ArgumentParser

struct PauseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause tasks (the partial file is kept).")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() async throws { try await edit(selection, state: state, action: .pause) }
}

struct ResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume paused tasks, retry failed ones.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() async throws { try await edit(selection, state: state, action: .resume) }
}

struct RemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove tasks from the queue.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    @Flag(name: .customLong("delete-file"), help: "Also delete the partial file (finished files are never deleted).")
    var deleteFile = false
    func run() async throws { try await edit(selection, state: state, action: .remove(deleteFile: deleteFile)) }
}
