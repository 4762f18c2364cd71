import Glibc
import HaulCore

/// Why the state directory could not be found or made.
public enum StateDirectoryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `--state-dir`, `$XDG_STATE_HOME` nor a home directory is known.
    case noHomeDirectory
    /// The path exists but is not a directory.
    case notADirectory(path: String)
    /// `mkdir` or `stat` failed on `path`.
    case cannotCreate(path: String, errno: Int32, message: String)
    /// The path is a symbolic link: haul changes the directory's mode and does not follow a link to do it.
    case symbolicLink(path: String)
    /// The directory exists but is not haul's to make private (`StateDirectoryCheck`).
    case refused(path: String, reason: StateDirectoryCheck.Refusal)

    public var description: String {
        switch self {
        case .noHomeDirectory:
            return "cannot find a place for haul's state: HOME is not set — set XDG_STATE_HOME or pass --state-dir DIR"
        case let .notADirectory(path):
            return "\(path) is not a directory — pass --state-dir DIR with a directory haul may create"
        case let .cannotCreate(path, errno, message):
            return "cannot create the state directory \(path): \(message) (errno \(errno)) — pass --state-dir DIR"
        case let .symbolicLink(path):
            return "the state directory \(path) is a symbolic link; haul makes its state directory private and does not follow links to do it — pass --state-dir with the directory itself"
        case let .refused(path, reason):
            return "haul will not keep its state in \(path): \(Self.why(reason)); it would make the directory private (0700) — pass --state-dir with an empty directory of your own, or a new one such as \(path)/haul"
        }
    }

    private static func why(_ reason: StateDirectoryCheck.Refusal) -> String {
        switch reason {
        case let .ownedByAnotherUser(owner, currentUser):
            return "it belongs to user \(owner), not to you (user \(currentUser))"
        case let .shared(mode):
            let traits = [mode & S_ISVTX != 0 ? "sticky" : nil, mode & S_IWOTH != 0 ? "writable by everyone" : nil].compactMap(\.self)
            return "it is a shared directory (mode \(String(mode, radix: 8)): " + traits.joined(separator: ", ") + ")"
        case let .foreignFiles(names):
            return "it holds files haul did not make (" + names.map { "'\($0.escapingAllControlCharacters)'" }.joined(separator: ", ") + ")"
        }
    }
}
