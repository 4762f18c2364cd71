/// Why this process may not transfer for a state directory.
public enum TransferLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another process holds the lock; `pid` is what it wrote into the lock file, if readable.
    case heldBy(pid: Int32?, stateDirectory: String)
    /// The lock file could not be opened or created.
    case cannotOpen(path: String, errno: Int32, message: String)
    /// `flock` failed for a reason other than another holder (for example ENOLCK).
    case cannotLock(path: String, errno: Int32, message: String)

    public var description: String {
        switch self {
        case let .heldBy(pid, stateDirectory):
            let who = pid.map { "another haul (pid \($0))" } ?? "another haul"
            return "\(who) is already transferring for \(stateDirectory); steer it with `haul add|pause|resume|remove`, or stop it first"
        case let .cannotOpen(path, errno, message):
            return "cannot open the lock file \(path): \(message) (errno \(errno)) — check the state directory's permissions, or pass --state-dir DIR"
        case let .cannotLock(path, errno, message):
            return "cannot lock \(path): \(message) (errno \(errno)) — put the state directory on a local filesystem with --state-dir DIR"
        }
    }
}
