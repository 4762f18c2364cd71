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
        let controller = session.editingController()
        let result = await controller.perform(.add(tasks))
        await controller.finishEditing()
        let (added, reused) = try result.addedTasks()
        for task in added { print("#\(task.id) \(task.displayName)") }
        for task in reused { print("#\(task.id) \(task.displayName) (already queued: \(task.state.rawValue))") }
        if let runner = session.runner {
            note("queued \(added.count) task(s) for the running haul\(runner.pid.map { " (pid \($0))" } ?? "")")
        } else {
            note("queued \(added.count) task(s); run `haul` (or `haul --headless`) to download")
        }
    }
}

/// `haul list [--json]`: print the queue.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the queue.")

    @OptionGroup var state: StateOptions
    @Flag(help: "One JSON object per line.") var json = false

    func run() throws {
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let tasks = try session.store.loadAll()
        if tasks.isEmpty { note("the queue is empty") }
        // Without a transferring process, a task recorded as running is only waiting for the next run.
        let nobodyRuns = session.runner == nil
        for var task in tasks {
            if nobodyRuns, task.state == .running { task.state = .waiting }
            if json {
                var line = JSONLine()
                line.add("id", task.id.rawValue)
                line.add("state", task.state.rawValue)
                line.add("name", task.displayName)
                line.add("url", URLValidation.redacted(task.url))
                line.add("directory", task.directory)
                line.add("bytes", task.bytesDone)
                line.add("total", task.totalBytes)
                line.add("attempts", Int64(task.attempts))
                line.add("error", task.lastError)
                print(line.text)
            } else {
                let total: String = task.totalBytes.map { ByteCountFormat.compact($0) } ?? "?"
                let percent = PercentFormat.text(done: task.bytesDone, total: task.totalBytes, isComplete: task.state == .completed)
                var error = ""
                if task.state == .failed || task.state == .paused, let text = task.lastError { error = "  (\(text))" }
                let size = ByteCountFormat.compact(task.bytesDone) + "/" + total
                let columns: [String] = ["#\(task.id)".padding(6), task.state.rawValue.padding(10), percent.padding(7), size.padding(16)]
                print(columns.joined() + task.displayName + error)
            }
        }
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

/// Applies an edit: through the running haul when there is one, else through a controller that only
/// edits the queue (the same rules either way). Unknown ids and tasks the edit does not apply to are
/// errors (exit status 2).
func edit(_ selection: TaskSelection, state: StateOptions, action: ControlRequest.Action) async throws {
    let session = try QueueSession.open(stateDirectory: state.stateDirectory)
    let known = try session.store.loadAll()
    let byID = Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
    let targets: [TaskID] = selection.all ? known.map(\.id) : selection.ids.map(TaskID.init)
    if let missing = targets.first(where: { byID[$0] == nil }) {
        throw UsageFailure(message: "no task #\(missing) in the queue (see `haul list`)")
    }
    if !selection.all, let task = targets.compactMap({ byID[$0] }).first(where: { !action.applies(to: $0) }) {
        throw UsageFailure(message: "#\(task.id) is \(task.state.rawValue): nothing to \(action.verb)")
    }
    if let runner = session.runner {
        for id in selection.all ? [nil] : targets.map(Optional.some) {
            try session.store.postControlRequest(ControlRequest(action: action, taskID: id))
        }
        note("asked the running haul\(runner.pid.map { " (pid \($0))" } ?? "") to \(action.verb) \(selection.all ? "every task" : targets.map { "#\($0)" }.joined(separator: " "))")
        return
    }
    let controller = session.editingController()
    let commands: [QueueCommand] = targets.filter { id in byID[id].map(action.applies) ?? false }.map { id in
        switch action {
        case .pause: .pause(id)
        case .resume: .resume(id)
        case .remove: .remove(id, deleteFile: false)
        case .removeDeletingFile: .remove(id, deleteFile: true)
        }
    }
    let results = await controller.perform(commands)
    await controller.finishEditing()
    let after = Dictionary(uniqueKeysWithValues: (try session.store.loadAll()).map { ($0.id, $0) })
    var changed = 0
    for (command, result) in zip(commands, results) {
        guard let id = command.taskID else { continue }
        switch result {
        case .done:
            changed += 1
            if !selection.all { print("#\(id) \(after[id]?.state.rawValue ?? "removed")") }
        case let .storeFailed(message):
            throw UsageFailure(message: message)
        case .added, .unknownTask, .notAllowed:
            break
        }
    }
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
    func run() async throws { try await edit(selection, state: state, action: deleteFile ? .removeDeletingFile : .remove) }
}

extension ControlRequest.Action {
    /// Whether the edit changes a task in this state (the lifecycle's rule; removal applies to every task).
    func applies(to task: DownloadTask) -> Bool {
        switch self {
        case .pause: TaskLifecycle.pause(task) != nil
        case .resume: TaskLifecycle.resume(task) != nil
        case .remove, .removeDeletingFile: true
        }
    }

    var verb: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .remove, .removeDeletingFile: "remove"
        }
    }
}
