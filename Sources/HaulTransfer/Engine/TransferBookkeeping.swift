import HaulCore

/// What the engine last did for one transfer, so its periodic work reports only changes and spaces its
/// checkpoints and disk checks. Owned by the transfer thread.
struct TransferBookkeeping {
    /// The position last reported as progress.
    var lastReported: Int64 = -1
    var lastCheckpoint: ContinuousClock.Instant = .now
    var lastDiskCheck: ContinuousClock.Instant = .now
    var syncInFlight = false
    var lastConnectionCount = 0
    /// The segment map last reported, so an unchanged one is not sent again.
    var lastMap: SegmentMap?

    /// Bytes written since the last free-space check.
    var writtenSinceDiskCheck = 0

    /// Counts `bytes` written; whether the free-space check is due now (`DiskGuard.bytesBetweenChecks`).
    mutating func wroteCheckingSpace(_ bytes: Int) -> Bool {
        writtenSinceDiskCheck += bytes
        guard writtenSinceDiskCheck >= DiskGuard.bytesBetweenChecks else { return false }
        writtenSinceDiskCheck = 0
        return true
    }

    /// Whether the disk check is due at `now` (`DiskGuard.interval` since the last); marks it done.
    mutating func diskCheckDue(now: ContinuousClock.Instant) -> Bool {
        guard now - lastDiskCheck >= DiskGuard.interval else { return false }
        lastDiskCheck = now
        return true
    }

    /// Whether a checkpoint sync should start at `now` (none in flight, `policy` says so for `undurable` bytes);
    /// marks it begun.
    mutating func checkpointDue(
        now: ContinuousClock.Instant, policy: CheckpointPolicy, undurable: Int64, total: Int64?
    ) -> Bool {
        guard !syncInFlight, policy.isDue(sinceLast: now - lastCheckpoint, undurable: undurable, total: total) else { return false }
        syncInFlight = true
        lastCheckpoint = now
        return true
    }
}
