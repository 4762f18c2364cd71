import HaulCore

/// A transfer's disk checks, for files and streams alike: free space against the reserve, and the part files'
/// links (`DiskGuard` decides).
extension DownloadDirectory {
    /// Fails with `readOnlyFileSystem` on a read-only mount, else with `lowDiskSpace` when free space is under
    /// `request`'s reserve (or under what it still `needed`).
    func checkFreeSpace(for request: TransferRequest, needed: Int64?) throws(DownloadError) {
        if let error = DiskGuard.freeSpaceError(
            room: room(), reserve: request.options.diskReserve, needed: needed, directory: request.directory) {
            throw error
        }
    }

    /// Fails when free space ran low or one of `parts` lost its last link.
    func checkDisk(for request: TransferRequest, parts: [FileWriter]) throws(DownloadError) {
        try checkFreeSpace(for: request, needed: nil)
        for part in parts {
            if let error = DiskGuard.partFileError(linkCount: part.linkCount(), path: part.path) { throw error }
        }
    }
}
