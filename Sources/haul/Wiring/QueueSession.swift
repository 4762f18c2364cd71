import Foundation
import HaulCore
import HaulRemote
import HaulStore
import HaulTransfer

/// The opened state directory and its database, shared by every subcommand.
struct QueueSession {
    let directory: StateDirectory
    let store: SQLiteTaskStore

    static func open(stateDirectory: String?) throws -> QueueSession {
        do {
            // As given: resolving symbolic links here would let haul change the mode of the directory a link names.
            let directory = try StateDirectory.prepare(explicitPath: stateDirectory)
            let database = try AppDatabase(path: directory.databasePath)
            return QueueSession(directory: directory, store: SQLiteTaskStore(database: database))
        } catch let error as StateDirectoryError {
            throw CommandFailure.usage(error.description)
        } catch let error as StoreError {
            throw CommandFailure.usage(error.description)
        }
    }

    /// A controller that edits the queue without transferring (no `run()`); end it with `finishEditing()`.
    func editingController() -> DownloadController {
        var configuration = DownloadController.Configuration()
        configuration.publishes = false
        return DownloadController(store: store, driver: CurlTransferDriver(), snapshots: SnapshotBox(), configuration: configuration)
    }

    /// The running owner of the engine, reached through its control socket; nil when none holds the queue.
    var owner: OwnerClient? {
        runner == nil ? nil : OwnerClient(socketPath: directory.socketPath)
    }

    /// The process transferring for this state dir, if any (its pid may not be written yet).
    var runner: TransferLockHolder? {
        TransferLock.holder(at: directory.lockPath)
    }
}
