import Foundation
import HaulCore
import HaulRemote
import HaulReport
import HaulStore

/// Where the CLI's commands take effect: the running haul over its control socket (at once, with its
/// answers), else the queue database through a controller that only edits it. One set of rules either way.
enum QueueEndpoint {
    case owner(OwnerClient, pid: Int32)
    case local(DownloadController, QueueSession)

    static func open(_ session: QueueSession) async throws -> QueueEndpoint {
        guard let owner = session.owner else { return .local(session.editingController(), session) }
        // An owner that just took the queue opens its socket a moment later: wait a little for it.
        let deadline = ContinuousClock.now + .seconds(5)
        var lastError: (any Error)?
        repeat {
            do {
                return .owner(owner, pid: try await owner.processID())
            } catch {
                lastError = error
                guard session.runner != nil else { return .local(session.editingController(), session) }
                try? await Task.sleep(for: .milliseconds(50))
            }
        } while ContinuousClock.now < deadline
        throw CommandFailure.ownerUnreachable(
            pid: session.runner?.pid, context: "on \(owner.socketPath) although it holds the queue",
            reason: lastError.map { "\($0)" } ?? "no answer")
    }

    func perform(_ commands: [QueueCommand]) async throws -> [CommandResult] {
        switch self {
        case let .owner(client, pid):
            do {
                return try await client.perform(commands)
            } catch {
                throw CommandFailure.ownerUnreachable(pid: pid, context: "to the command", reason: "\(error)")
            }
        case let .local(controller, _):
            return await controller.perform(commands)
        }
    }

    /// What an add made of its links: new tasks, and queued ones they named again or continue (`RerunOffers`).
    struct Added {
        var new: [DownloadTask]
        var reused: [DownloadTask]
        /// The reused tasks a new link continues.
        var continued: Set<TaskID>

        /// What the add says of each reused task; `again` as `DownloadTask.reusedNote` takes it.
        func reusedNotes(again: String) -> [String] {
            reused.map { $0.reusedNote(continued: continued.contains($0.id), again: again) }
        }
    }

    /// Adds `newTasks`, each link that serves the file an unfinished task holds part of going to that task; the
    /// queue is read for that only when a link may (`RerunMatch.mayContinue`).
    func add(_ newTasks: [NewTask], checking options: TransferOptions) async throws -> Added {
        let marked = newTasks.contains(where: RerunMatch.mayContinue)
            ? await RerunOffers.marked(newTasks, known: try await tasks(), options: options) : newTasks
        let (new, reused) = try await perform([.add(marked)])[0].addedTasks()
        return Added(new: new, reused: reused, continued: Set(marked.compactMap(\.continues)))
    }

    /// Adds `newTasks` and closes the endpoint, whatever happened.
    func addClosing(_ newTasks: [NewTask], checking options: TransferOptions) async throws -> Added {
        do {
            let added = try await add(newTasks, checking: options)
            await close()
            return added
        } catch {
            await close()
            throw error
        }
    }

    /// Every task as it stands now (live byte counts from a running haul).
    func tasks() async throws -> [DownloadTask] {
        try await rows().map(\.task)
    }

    /// Every task as it stands now, with a running haul's live figures (bytes, speed, ETA); the tasks' byte counts
    /// are the live ones.
    func rows() async throws -> [QueueSnapshot.Row] {
        var rows: [QueueSnapshot.Row] = []
        try await forEachRow { rows.append($0) }
        return rows
    }

    /// `rows()` one at a time: without a running haul they come from a cursor on the database, with one a page at a
    /// time from its latest snapshot, so a pass over the queue (`haul list`) never holds the whole queue.
    func forEachRow(_ body: (QueueSnapshot.Row) -> Void) async throws {
        switch self {
        case let .owner(client, pid):
            // A page at a time, each row with its live byte count.
            do {
                try await client.forEachRow { row in body(QueueListing.live(row)) }
            } catch {
                throw CommandFailure.ownerUnreachable(pid: pid, context: "with the queue", reason: "\(error)")
            }
        case let .local(_, session):
            do {
                try session.store.forEachTask { task in
                    // Without a transferring process, a task recorded as running is only waiting for the next run.
                    var task = task
                    if task.state == .running { task.state = .waiting }
                    body(QueueSnapshot.Row(task: task, bytesReceived: task.bytesDone))
                }
            } catch {
                throw CommandFailure.runtime("cannot read the queue: \(error)")
            }
        }
    }

    /// Writes what `haul list` prints in `format` to standard output, a page at a time: formatted by a running haul
    /// (the CLI decodes no task), else from a cursor on the database; how many tasks it printed.
    func printListing(_ format: QueueListing.Format) async throws -> Int {
        guard case let .owner(client, pid) = self else {
            var printed = 0
            try await forEachRow { row in
                guard let line = QueueListing.line(row, format) else { return }
                print(line)
                printed += 1
            }
            return printed
        }
        do {
            return try await client.forEachLines(format: format) { page in print(page.text, terminator: "") }
        } catch {
            throw CommandFailure.ownerUnreachable(pid: pid, context: "with the queue", reason: "\(error)")
        }
    }

    /// What the running haul's schedule does now, as its list shows it (it knows when the user set the schedule
    /// aside with `z`): `.some(nil)` when it neither holds nor caps the queue; nil without a running haul (or
    /// when it does not answer), and the caller reads the stored schedule.
    func scheduleNote() async -> String?? {
        guard case let .owner(client, _) = self, let page = try? await client.rows(from: 0, limit: 0) else { return nil }
        return .some(page.schedule)
    }

    /// Lets a local controller finish the disk work it was given (part files to delete).
    func close() async {
        if case let .local(controller, _) = self { await controller.finishEditing() }
    }

    var ownerPID: Int32? {
        if case let .owner(_, pid) = self { return pid }
        return nil
    }
}
