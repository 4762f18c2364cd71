import Foundation

/// Where haul keeps its state for one queue: the database and the transfer lock.
///
/// The directory is `--state-dir` when given, else `$XDG_STATE_HOME/haul`, else
/// `~/.local/state/haul`. Downloads never go here, and nothing but the part file goes beside a
/// download (DESIGN §2).
public struct StateDirectory: Sendable, Equatable {
    /// Absolute path, without a trailing slash.
    public let path: String

    /// The queue database (plus SQLite's `-wal` and `-shm` files beside it).
    public var databasePath: String { path + "/" + Self.databaseName }
    /// The file whose `flock` marks the transferring process.
    public var lockPath: String { path + "/" + Self.lockName }
    /// The owner's control socket (0600): the CLI and attached lists reach the running haul through it.
    public var socketPath: String { path + "/" + Self.socketName }
    /// Where a background haul writes its log.
    public var logPath: String { path + "/" + Self.logName }
    /// The TCP listener's secret when none was given (0600).
    public var rpcSecretPath: String { path + "/" + Self.rpcSecretName }

    static let databaseName = "haul.sqlite"
    static let lockName = "haul.lock"
    static let socketName = "haul.sock"
    static let logName = "haul.log"
    static let rpcSecretName = "rpc-secret"

    /// Every name haul makes in the directory: the files above and SQLite's beside the database.
    public static let ownFileNames: Set<String> = [
        databaseName, databaseName + "-wal", databaseName + "-shm", databaseName + "-journal",
        lockName, socketName, logName, rpcSecretName,
    ]

    /// Resolves the directory without touching the disk.
    ///
    /// A relative explicit path is taken from `currentDirectory`; a leading `~` means the home
    /// directory. `$XDG_STATE_HOME` counts only when absolute, as the XDG spec requires.
    public init(
        explicitPath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(StateDirectoryError) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.passwordHome()
        let chosen: String
        if let explicitPath, !explicitPath.isEmpty {
            if explicitPath == "~" || explicitPath.hasPrefix("~/") {
                guard let home else { throw .noHomeDirectory }
                chosen = home + explicitPath.dropFirst()
            } else if explicitPath.hasPrefix("/") {
                chosen = explicitPath
            } else {
                chosen = currentDirectory + "/" + explicitPath
            }
        } else if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            chosen = xdg + "/haul"
        } else if let home {
            chosen = home + "/.local/state/haul"
        } else {
            throw .noHomeDirectory
        }
        path = URL(fileURLWithPath: chosen).standardizedFileURL.path
    }

    /// Resolves the directory as `init(explicitPath:)` does and creates it.
    public static func prepare(explicitPath: String?) throws(StateDirectoryError) -> StateDirectory {
        let directory = try StateDirectory(explicitPath: explicitPath)
        try directory.create()
        return directory
    }

    /// Creates the directory and any missing parents, each with mode 0700, and makes the directory itself 0700
    /// on every start (it holds URL credentials, `-H` headers and the control socket); existing parents are
    /// left as they are. An existing directory is made private only when `StateDirectoryCheck` says it is haul's,
    /// else refused; a symbolic link in its place is refused, never followed.
    public func create() throws(StateDirectoryError) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 { continue }
            let code = errno
            guard code == EEXIST else {
                throw .cannotCreate(path: prefix, errno: code, message: String(cString: strerror(code)))
            }
            var info = stat()
            guard stat(prefix, &info) == 0 else {
                let code = errno
                throw .cannotCreate(path: prefix, errno: code, message: String(cString: strerror(code)))
            }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: prefix) }
        }
        try makePrivate()
    }

    /// The home directory from the password database, for when `$HOME` is unset.
    private static func passwordHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        // `pw_dir` points into `buffer`, so it is read while the buffer is pinned.
        let home: String? = buffer.withUnsafeMutableBufferPointer { storage in
            guard let base = storage.baseAddress,
                  getpwuid_r(getuid(), &entry, base, storage.count, &result) == 0,
                  result != nil, let directory = entry.pw_dir else { return nil }
            return String(cString: directory)
        }
        guard let home, !home.isEmpty else { return nil }
        return home
    }
}
