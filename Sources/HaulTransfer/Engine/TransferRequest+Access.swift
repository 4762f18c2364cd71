import HaulCore

extension TransferRequest {
    /// The task's `.netrc`, read when an attempt starts (a file or a stream); a file that went away or no longer
    /// reads is the task's error.
    func readNetrc() throws(DownloadError) -> NetrcFile? {
        do {
            return try requestOptions.netrcFile.map { path throws(IntakeError) in try NetrcFile.read(path) }
        } catch {
            throw .unusableOption(error.description)
        }
    }
}
