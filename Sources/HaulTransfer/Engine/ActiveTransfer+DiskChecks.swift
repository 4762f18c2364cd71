import HaulCore

/// The transfer's disk checks: free space against the reserve, and the part file's link (`DiskGuard` decides).
extension ActiveTransfer {
    /// Fails with `lowDiskSpace` when free space is under the reserve (or under what the rest of the file needs).
    func checkFreeSpace(needed: Int64?) throws(DownloadError) {
        if let error = DiskGuard.freeSpaceError(
            free: directory.freeBytes(), reserve: request.options.diskReserve, needed: needed,
            directory: request.directory) {
            throw error
        }
    }

    /// Fails when free space ran low or the part file lost its last link.
    func checkDisk() throws(DownloadError) {
        try checkFreeSpace(needed: nil)
        guard let writer else { return }
        if let error = DiskGuard.partFileError(linkCount: writer.linkCount(), path: writer.path) { throw error }
    }
}
