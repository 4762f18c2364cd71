import Dispatch
import HaulCore

/// The engine's blocking disk work (allocate, fdatasync, the closing work) on one serial queue, in the
/// order it was asked for. Each job writes through its own duplicate of the part file's descriptor and
/// reports back through the inbox, so every result reaches the transfer thread in order.
final class DiskWorker: Sendable {
    private let queue = DispatchQueue(label: "haul.disk")
    private let finishing = DispatchQueue(label: "haul.stream-finish")
    private let inbox: CommandInbox

    init(inbox: CommandInbox) {
        self.inbox = inbox
    }

    /// Allocates the part file at full size (before any closing work of the transfer, which the queue runs
    /// after it); a failure (a full disk) comes back as `.allocated` with the error.
    func allocate(_ writer: FileWriter, length: Int64, for id: TaskID, attempt: Int) {
        let copy = writer.duplicate()
        queue.async { [inbox] in
            defer { copy.close() }
            do throws(DownloadError) {
                try copy.allocate(length)
                inbox.post(.allocated(id, attempt: attempt, error: nil))
            } catch {
                inbox.post(.allocated(id, attempt: attempt, error: error))
            }
        }
    }

    /// Syncs a checkpoint's part files; the result comes back as `.synced` with what the sync covered. A failed sync
    /// records nothing (the closing sync reports the error).
    func sync(_ checkpoint: CheckpointSync, for id: TaskID, attempt: Int) {
        let copies = checkpoint.writers.map { $0.duplicate() }
        queue.async { [inbox] in
            defer { for copy in copies { copy.close() } }
            guard copies.allSatisfy({ (try? $0.sync()) != nil }) else { return }
            inbox.post(.synced(id, attempt: attempt, checkpoint.coverage))
        }
    }

    /// Runs a transfer's closing work (sync, verify, publish, directory sync); its result comes back as `.concluded`.
    /// A closing that may take long (a mux by ffmpeg) runs on a queue of its own, so that other tasks' syncs do not
    /// wait for it.
    func close(_ work: ClosingWork, for id: TaskID) {
        (work.mayTakeLong ? finishing : queue).async { [inbox] in
            inbox.post(.concluded(id, work.run()))
        }
    }
}
