import ArgumentParser
import Foundation
import HaulCore
import HaulStore
import HaulReport

/// `haul add URL ...`: queue without running; a running haul picks the tasks up within a second or two.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Queue URLs without running them.")

    @OptionGroup var add: AddOptions
    @OptionGroup var state: StateOptions

    func run() throws {
        let tasks = try add.newTasks()
        guard !tasks.isEmpty else { throw ValidationError("give at least one URL (or -i FILE)") }
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let added = try session.store.enqueue(tasks)
        for task in added { print("#\(task.id) \(task.displayName)") }
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

/// Applies an edit: through the running haul when there is one, else straight to the store.
func edit(_ selection: TaskSelection, state: StateOptions, action: ControlRequest.Action) throws {
    let session = try QueueSession.open(stateDirectory: state.stateDirectory)
    let known = try session.store.loadAll()
    let byID = Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
    let targets: [TaskID] = selection.all ? known.map(\.id) : selection.ids.map(TaskID.init)
    if let missing = targets.first(where: { byID[$0] == nil }) {
        throw UsageFailure(message: "no task #\(missing) in the queue (see `haul list`)")
    }
    if let runner = session.runner {
        for id in selection.all ? [nil] : targets.map(Optional.some) {
            try session.store.postControlRequest(ControlRequest(action: action, taskID: id))
        }
        note("asked the running haul\(runner.pid.map { " (pid \($0))" } ?? "") to \(action.verb) \(selection.all ? "every task" : targets.map { "#\($0)" }.joined(separator: " "))")
        return
    }
    var changed: [DownloadTask] = []
    for id in targets {
        guard let task = byID[id] else { continue }
        switch action {
        case .pause:
            if let paused = TaskLifecycle.pause(task) { changed.append(paused) }
        case .resume:
            if let resumed = TaskLifecycle.resume(task) { changed.append(resumed) }
        case .remove, .removeDeletingFile:
            try session.store.delete([id])
            if action == .removeDeletingFile, task.state != .completed, let name = task.fileName {
                try? FileManager.default.removeItem(atPath: PartialFilePath.path(directory: task.directory, fileName: name))
            }
            print("#\(id) removed")
        }
    }
    try session.store.save(changed)
    if selection.all {
        note("\(changed.count) task(s) now \(action == .pause ? "paused" : "waiting")")
    } else {
        for task in changed { print("#\(task.id) \(task.state.rawValue)") }
    }
}

struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause tasks (the partial file is kept).")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() throws { try edit(selection, state: state, action: .pause) }
}

struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume paused tasks, retry failed ones.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    func run() throws { try edit(selection, state: state, action: .resume) }
}

struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove tasks from the queue.")
    @OptionGroup var selection: TaskSelection
    @OptionGroup var state: StateOptions
    @Flag(name: .customLong("delete-file"), help: "Also delete the partial file (finished files are never deleted).")
    var deleteFile = false
    func run() throws { try edit(selection, state: state, action: deleteFile ? .removeDeletingFile : .remove) }
}

extension ControlRequest.Action {
    var verb: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .remove, .removeDeletingFile: "remove"
        }
    }
}
