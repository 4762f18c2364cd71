/// Why the state directory could not be found or made.
public enum StateDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `--state-dir`, `$XDG_STATE_HOME` nor a home directory is known.
    case noHomeDirectory
    /// The path exists but is not a directory.
    case notADirectory(path: String)
    /// `mkdir` or `stat` failed on `path`.
    case cannotCreate(path: String, errno: Int32, message: String)

    public var description: String {
        switch self {
        case .noHomeDirectory:
            return "cannot find a place for haul's state: HOME is not set — set XDG_STATE_HOME or pass --state-dir DIR"
        case let .notADirectory(path):
            return "\(path) is not a directory — pass --state-dir DIR with a directory haul may create"
        case let .cannotCreate(path, errno, message):
            return "cannot create the state directory \(path): \(message) (errno \(errno)) — pass --state-dir DIR"
        }
    }
}
