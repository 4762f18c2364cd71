import Foundation
import HaulCore
import HaulRemote
import HaulReport
import HaulTerminal
import HaulTUI

/// The live list attached to a background haul: its snapshots, its commands; `q` closes only the view.
enum Attachment {
    /// Rows read before the first screen: more than a screen shows, a small part of a long queue.
    static let firstRows = 2_000

    /// `linkCheck`: how a new link that may continue a task is asked (`QueueEndpoint.add`); `again`: the options
    /// a hint repeats so its command finds the same queue (`StateOptions.repeated`).
    static func run(
        owner: OwnerClient, newTasks: [NewTask], linkCheck: TransferOptions, terminal: TerminalOptions, again: String = ""
    ) async throws -> ExitStatus {
        let pid: Int32
        let first: SnapshotAssembly
        do {
            pid = try await owner.processID()
            if !newTasks.isEmpty { reportAdded(try await QueueEndpoint.owner(owner, pid: pid).add(newTasks, checking: linkCheck), again: again) }
            // The first screen from the first rows; the rest follows a page at a time (an older owner sends it whole).
            if let page = try await owner.firstPage(limit: firstRows) {
                first = page
            } else {
                first = SnapshotAssembly(whole: try await owner.snapshot())
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.ownerUnreachable(pid: nil, context: "to attach the live list", reason: "\(error)")
        }
        let remote = RemoteQueue(client: owner, first: first, ownerProcessID: pid)
        let signals = SignalTrap()
        signals.install {}
        let stop = signals.requested
        let end = await InteractiveSession.runOnKeyThread(
            snapshots: remote.snapshots, send: { remote.send($0) },
            options: { var options = terminal; options.attachedTo = pid; return options }(),
            stopRequested: { stop() })
        remote.close()
        // Closed while the background haul was gone: say once more what became of it.
        if let loss = remote.loss {
            note(loss.message)
            return loss.exitStatus
        }
        let last = remote.snapshots.read().ownerProcessID ?? pid
        switch end {
        case .success:
            note("the downloads go on in the background (pid \(last)); `haul\(again)` shows them again, `haul stop\(again)` ends them")
            return .success
        case let .failure(error as TerminalUnavailable):
            // No screen to draw on (TERM=dumb, an unknown TERM): the queue as it stands, and what to use instead.
            let format = QueueListing.Format(ascii: !CharacterLocale.adopt())
            // The whole queue, as `haul list` prints it (the mirror may not have read every row yet).
            var printed = false
            do {
                _ = try await owner.forEachLines(format: format) { page in
                    printed = true
                    print(page.text, terminator: "")
                }
            } catch {
                if !printed { for row in remote.snapshots.read().rows { QueueListing.line(row, format).map { print($0) } } }
            }
            note("\(error.reason): the queue of the background haul (pid \(pid)) is printed instead of the live list;"
                + " `haul list\(again)` prints it again, `haul stop\(again)` ends the downloads")
            return .success
        case let .failure(error):
            throw CommandFailure.runtime("\(error)")
        }
    }

    static func reportAdded(_ added: QueueEndpoint.Added, again: String) {
        for task in added.new { note("#\(task.id) \(task.displayName) queued") }
        added.reusedNotes(again: again).forEach(note)
    }
}
