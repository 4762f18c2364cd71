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
}
