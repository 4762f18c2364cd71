import HaulCore

/// One thing the closing work does when a transfer ends, in the order `ClosingPolicy` gives. A value: made on the
/// disk worker's queue by the policy and carried out there.
enum ClosingStep: Sendable, Equatable {
    /// Makes what the part files hold durable (`fdatasync` each).
    case syncParts
    /// Empties the part files for this reason (the remote file changed): two versions are never spliced.
    case emptyParts(DownloadError)
    /// Reads each part file's size on disk, to compare with these bytes the transfer wrote into it.
    case verifySizes([Int64])
    /// Makes the part files one output before it is checked: a stream's audio muxed into its video, or a stream
    /// remuxed into another container, by ffmpeg when it is installed (else the parts are the output, as they came).
    case assemble
    /// Reads the digest of the output that would be published.
    case verifyChecksum(Checksum)
    /// Removes the output and the part files, which failed verification for this reason: a wrong file is of no use
    /// under any name, and a retry starts clean.
    case discard(DownloadError)
    /// Moves the output (and a file saved beside it) to free final names, never overwriting one.
    case publish
    /// Makes the renames durable (`fsync` of the download directory).
    case syncDirectory
    /// Hands the end to the controller, which records it; the last step.
    case record(ClosingVerdict)
}

/// What carrying out a `ClosingStep` found, for the policy to choose the next one.
enum ClosingFinding: Sendable, Equatable {
    /// The step was carried out.
    case done
    /// The step could not be carried out.
    case failed(DownloadError)
    /// `verifySizes`: each part file's size on disk (nil: it is not there).
    case sizes([Int64?])
    /// `verifyChecksum`: the output's digest, lower-case hexadecimal.
    case digest(String)
}

/// How a closing ends, in the policy's terms; the closing work turns it into the `TransferOutcome`.
enum ClosingVerdict: Sendable, Equatable {
    /// Verified and published.
    case completed
    /// Stopped on request, the part files synced.
    case paused
    case failed(DownloadError, keeps: KeptBytes)

    /// What the part files keep of a task that did not complete.
    enum KeptBytes: Sendable, Equatable {
        /// What they held when the transfer ended: the closing sync made it durable.
        case synced
        /// What was durable before the closing (its sync failed).
        case durableBefore
        /// Nothing: they were emptied or removed.
        case nothing
    }
}
