import HaulCore

extension ActiveTransfer {
    /// Fails when free space ran low or the part file lost its last link.
    func checkDisk() throws(DownloadError) {
        try directory.checkDisk(for: request, parts: writer.map { [$0] } ?? [])
    }
}
