import Foundation
import HaulCore
import HaulStore

/// The opened state directory and its database, shared by every subcommand.
struct QueueSession {
    let directory: StateDirectory
    let store: SQLiteTaskStore

    static func open(stateDirectory: String?) throws -> QueueSession {
        do {
            let directory = try StateDirectory.prepare(explicitPath: stateDirectory.map { absolutePath($0) })
            let database = try AppDatabase(path: directory.databasePath)
            return QueueSession(directory: directory, store: SQLiteTaskStore(database: database))
        } catch let error as StateDirectoryError {
            throw UsageFailure(message: error.description)
        } catch let error as StoreError {
            throw UsageFailure(message: error.description)
        }
    }

    /// The process transferring for this state dir, if any (its pid may not be written yet).
    var runner: TransferLockHolder? {
        TransferLock.holder(at: directory.lockPath)
    }
}

/// A usage or configuration error: printed as `haul: MESSAGE`, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
