import Glibc

/// Whether haul may keep its state in an existing directory and make it private (0700), decided from what `fstat`
/// and a listing of the directory say, without touching the disk.
///
/// The state holds URL credentials, `-H` headers and the control socket, so the directory is made 0700 on every
/// start; but only a directory that is haul's: owned by the current user, not shared (world-writable or sticky,
/// as `/tmp` is), and empty or holding only haul's own files. Any other is refused, as ssh refuses a `~/.ssh` it
/// cannot trust, so `--state-dir /tmp` or `--state-dir ~` never changes the mode of a directory others rely on.
public enum StateDirectoryCheck {
    /// What to do with the directory.
    public enum Verdict: Sendable, Equatable {
        /// It is private already.
        case use
        /// It is haul's: make it 0700.
        case makePrivate
        /// It is not haul's to change; the state goes elsewhere.
        case refuse(Refusal)
    }

    /// Why a directory is not haul's to change.
    public enum Refusal: Sendable, Equatable {
        /// Another user owns it.
        case ownedByAnotherUser(owner: uid_t, currentUser: uid_t)
        /// Others may write in it, or it is sticky: a shared directory (the mode, as `ls` shows it in octal).
        case shared(mode: mode_t)
        /// It holds files haul did not make (the first few names, sorted).
        case foreignFiles([String])
    }

    /// The most foreign names a refusal quotes.
    public static let quotedNames = 3

    /// The verdict for a directory owned by `owner` with permission bits `mode` (with the sticky bit) that holds
    /// `entries` (names without `.` and `..`; a listing may stop once it has `quotedNames` foreign ones).
    public static func decide(owner: uid_t, currentUser: uid_t, mode: mode_t, entries: [String]) -> Verdict {
        if owner != currentUser { return .refuse(.ownedByAnotherUser(owner: owner, currentUser: currentUser)) }
        if mode & S_ISVTX != 0 || mode & S_IWOTH != 0 { return .refuse(.shared(mode: mode & 0o7777)) }
        let foreign = entries.filter { !StateDirectory.ownFileNames.contains($0) }.sorted()
        if !foreign.isEmpty { return .refuse(.foreignFiles(Array(foreign.prefix(quotedNames)))) }
        return mode & 0o7777 == 0o700 ? .use : .makePrivate
    }
}
