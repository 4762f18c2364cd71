import ArgumentParser
import HaulCore

/// `haul add URL ...`: queue without running; a running haul picks the tasks up within a second or two.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Queue URLs without running them.")

    @OptionGroup var links: URLArguments
    @OptionGroup var add: AddOptions
    @OptionGroup var transfer: TaskTransferFlags
    @OptionGroup var state: StateOptions
    @OptionGroup var settingsFile: SettingsOptions

    func run() async throws {
        // The settings file's dir, headers, proxies and rules apply to the tasks added, as in a run.
        let settings = try RunSettings.load(
            config: settingsFile.config, commandLine: add.commandLine.merging(transfer.commandLine) { given, _ in given })
        // -s and --limit-rate are stored with each task: the haul that runs it, this one's or a running one, uses them.
        let tasks = try add.newTasks(settings, urls: links.urls, stored: transfer.stored(settings))
        guard !tasks.isEmpty else { throw ValidationError("give at least one URL (or -i FILE)") }
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let outcome = try await endpoint.addClosing(tasks, checking: settings.linkCheckOptions)
        let added = outcome.new
        for task in added { print("#\(task.id) \(task.displayName)") }
        for task in outcome.reused {
            let continued = outcome.continued.contains(task.id) ? "continued with the new link" : "already queued"
            print("#\(task.id) \(task.displayName) (\(continued): \(task.state.rawValue))")
        }
        if let pid = endpoint.ownerPID {
            note("queued \(added.count) task(s) for the running haul (pid \(pid))")
        } else {
            note("queued \(added.count) task(s); run `haul\(state.repeated)` (or `haul --headless\(state.repeated)`) to download")
        }
    }
}
