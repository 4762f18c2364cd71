import HaulCore

/// The disk checks a running transfer passes about once a second, and the free-space one also every few MiB it
/// writes (a fast download would otherwise pass the reserve by a second's worth): room left on the file system,
/// and a part file that still has a name. Pure: the caller reads the figures.
enum DiskGuard {
    static let interval: Duration = .seconds(1)
    /// Bytes written between two free-space checks, whatever the time.
    static let bytesBetweenChecks = 4 << 20

    /// `readOnlyFileSystem` when nothing can be written there (a read-only mount reports little or nothing free,
    /// which is not the cause); else `lowDiskSpace` when the free bytes are under the reserve plus what the rest of
    /// the file needs.
    /// - Parameters:
    ///   - room: the filesystem's free bytes (for an unprivileged writer) and mount flag; nil when unknown (no check).
    ///   - needed: bytes the rest of the file still needs, when known.
    static func freeSpaceError(room: FreeSpace.Room?, reserve: Int64, needed: Int64?, directory: String) -> DownloadError? {
        guard let room else { return nil }
        if room.readOnly { return .readOnlyFileSystem(path: directory) }
        return freeSpaceError(free: room.freeBytes, reserve: reserve, needed: needed, directory: directory)
    }

    /// `lowDiskSpace` when `free` is under the reserve plus what the rest of the file needs.
    /// - Parameters:
    ///   - free: bytes free for an unprivileged writer; nil when unknown (no check).
    ///   - needed: bytes the rest of the file still needs, when known.
    static func freeSpaceError(free: Int64?, reserve: Int64, needed: Int64?, directory: String) -> DownloadError? {
        guard let free else { return nil }
        let rest = max(0, needed ?? 0)
        // A reserve and a rest past Int64 together need more room than any disk has: no trap, an error.
        let (wanted, overflow) = reserve.addingReportingOverflow(rest)
        guard overflow || free < wanted else { return nil }
        return .lowDiskSpace(path: directory, freeBytes: free, neededBytes: rest, reserveBytes: reserve)
    }

    /// `partFileRemoved` when the part file lost its last link (deleted, or its folder removed): writing
    /// on would fill a file nobody can reach.
    static func partFileError(linkCount: Int?, path: String) -> DownloadError? {
        linkCount == 0 ? .partFileRemoved(path: path) : nil
    }
}
