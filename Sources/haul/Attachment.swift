import Foundation
import HaulCore
import HaulRemote
import HaulTerminal
import HaulTUI

/// The live list attached to a background haul: its snapshots, its commands; `q` closes only the view.
enum Attachment {
    static func run(
        owner: OwnerClient, newTasks: [NewTask], theme: Theme, downloadDirectory: String
    ) async throws -> ExitStatus {
        let pid: Int32
        let first: QueueSnapshot
        do {
            pid = try await owner.processID()
            if !newTasks.isEmpty { try reportAdded(await owner.perform([.add(newTasks)])) }
            first = try await owner.snapshot()
        } catch {
            throw UsageFailure(message: "cannot attach to the running haul: \(error)")
        }
        let lost = LostFlag()
        let remote = RemoteQueue(client: owner, first: first) { lost.set() }
        let signals = SignalTrap()
        signals.install {}
        let stop = signals.requested
        let end = await runKeyLoop(
            snapshots: remote.snapshots, send: { remote.send($0) },
            options: TerminalOptions(theme: theme, downloadDirectory: downloadDirectory, attachedTo: pid),
            stopRequested: { stop() || lost.isSet })
        remote.close()
        if lost.isSet {
            note("the background haul (pid \(pid)) stopped")
            return .success
        }
        switch end {
        case .success:
            note("the downloads go on in the background (pid \(pid)); `haul` shows them again, `haul stop` ends them")
            return .success
        case let .failure(error):
            throw UsageFailure(message: "\(error)")
        }
    }

    static func reportAdded(_ results: [CommandResult]) throws {
        for result in results {
            let (added, reused) = try result.addedTasks()
            for task in added { note("#\(task.id) \(task.displayName) queued") }
            for task in reused { note("#\(task.id) \(task.displayName) is already in the queue (\(task.state.rawValue)): continuing it") }
        }
    }
}

/// Set once, from any thread, when the owner stops answering.
final class LostFlag: Sendable {
    private let flag = PthreadMutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
