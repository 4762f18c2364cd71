import ArgumentParser
import Foundation
import HaulCore
import HaulStore
import HaulReport

/// `haul add URL ...`: queue without running; a running haul picks the tasks up within a second or two.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Queue URLs without running them.")

    @OptionGroup var add: AddOptions
    @OptionGroup var state: StateOptions

    func run() async throws {
        let tasks = try add.newTasks()
        guard !tasks.isEmpty else { throw ValidationError("give at least one URL (or -i FILE)") }
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let results = try await endpoint.perform([.add(tasks)])
        await endpoint.close()
        let (added, reused) = try results[0].addedTasks()
        for task in added { print("#\(task.id) \(task.displayName)") }
        for task in reused { print("#\(task.id) \(task.displayName) (already queued: \(task.state.rawValue))") }
        if let pid = endpoint.ownerPID {
            note("queued \(added.count) task(s) for the running haul (pid \(pid))")
        } else {
            note("queued \(added.count) task(s); run `haul` (or `haul --headless`) to download")
        }
    }
}

/// `haul list [--json]`: print the queue.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the queue.")

    @OptionGroup var state: StateOptions
    @Flag(help: "One JSON object per line.") var json = false

    func run() async throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        let tasks = try await endpoint.tasks()
        await endpoint.close()
        if tasks.isEmpty { note("the queue is empty") }
        for task in tasks { print(json ? QueueListing.jsonLine(task) : QueueListing.line(task)) }
    }
}

/// Task ids or `--all`, shared by pause, resume and remove.
struct TaskSelection: ParsableArguments {
    @Argument(help: "Task ids (see `haul list`).") var ids: [Int64] = []
    @Flag(help: "Every task.") var all = false

    func validate() throws {
        if ids.isEmpty == !all { throw ValidationError("give task ids or --all (not both)") }
    }
}

/// Applies an edit through the running haul when there is one, else to the queue database (the same
/// rules either way). Unknown ids and tasks the edit does not apply to are errors (exit status 2).
func edit(_ selection: TaskSelection, state: StateOptions, action: EditAction) async throws {
    let session = try QueueSession.open(stateDirectory: state.stateDirectory)
    let endpoint = try await QueueEndpoint.open(session)
    let known = try await endpoint.tasks()
    let byID = Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
    let targets: [TaskID] = selection.all ? known.map(\.id) : selection.ids.map(TaskID.init)
    if let missing = targets.first(where: { byID[$0] == nil }) {
        await endpoint.close()
        throw UsageFailure(message: "no task #\(missing) in the queue (see `haul list`)")
    }
    // With --all, only the tasks the edit applies to; named tasks go to the controller, which says no for itself.
    let chosen = selection.all ? targets.filter { byID[$0].map(action.applies) ?? false } : targets
    let commands = chosen.map(action.command)
    let results = try await endpoint.perform(commands)
    // The owner may be gone by now although it carried the commands out: a headless run ends once nothing is
    // left (after this remove or pause). The new states then follow from the lifecycle's rules.
    let now = try? await endpoint.tasks()
    let after = Dictionary(uniqueKeysWithValues: (now ?? known.compactMap(action.predicted)).map { ($0.id, $0) })
    await endpoint.close()
    var changed = 0
    var refusals: [String] = []
    for (command, result) in zip(commands, results) {
        guard let id = command.taskID else { continue }
        switch result {
        case .done:
            changed += 1
            if !selection.all { print("#\(id) \(after[id]?.state.rawValue ?? "removed")") }
        case let .storeFailed(message):
            refusals.append(message)
        case let .notAllowed(_, state):
            refusals.append("#\(id) is \(state.rawValue): nothing to \(action.verb)")
        case .unknownTask:
            refusals.append("no task #\(id) in the queue (see `haul list`)")
        case .added:
            break
        }
    }
    if !refusals.isEmpty { throw UsageFailure(message: refusals.joined(separator: "\nhaul: ")) }
    if selection.all {
        note("\(changed) task(s) \(action == .pause ? "now paused" : action == .resume ? "now waiting" : "removed")")
    }
}

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

/// What `haul pause|resume|remove` asks of tasks.
enum EditAction: Equatable {
    case pause, resume
    case remove(deleteFile: Bool)

    /// Whether the edit changes a task in this state (the lifecycle's rule; removal applies to every task).
    func applies(to task: DownloadTask) -> Bool {
        switch self {
        case .pause: TaskLifecycle.pause(task) != nil
        case .resume: TaskLifecycle.resume(task) != nil
        case .remove: true
        }
    }

    /// The task once the edit is carried out (unchanged where it does not apply); nil once removed.
    func predicted(_ task: DownloadTask) -> DownloadTask? {
        switch self {
        case .pause: TaskLifecycle.pause(task) ?? task
        case .resume: TaskLifecycle.resume(task) ?? task
        case .remove: nil
        }
    }

    func command(for id: TaskID) -> QueueCommand {
        switch self {
        case .pause: .pause(id)
        case .resume: .resume(id)
        case let .remove(deleteFile): .remove(id, deleteFile: deleteFile)
        }
    }

    var verb: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .remove: "remove"
        }
    }
}
