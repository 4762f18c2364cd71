import HaulCore

/// When the engine makes a transfer's received bytes durable (DESIGN §5).
///
/// Once a second (`interval`), and sooner, though at most ten times a second, once the bytes not yet
/// durable pass 1/128 of the file (at least 256 KiB): a kill -9 then loses under 1 % of a fast
/// download's file, not a whole second of it.
struct CheckpointPolicy: Equatable {
    let interval: Duration
    static let spacing: Duration = .milliseconds(100)

    init(seconds: Double) {
        interval = .seconds(within: 86_400, seconds)
    }

    /// - Parameters:
    ///   - sinceLast: time since the last checkpoint began.
    ///   - undurable: bytes received and not yet synced.
    ///   - total: the file's length, when known.
    func isDue(sinceLast: Duration, undurable: Int64, total: Int64?) -> Bool {
        guard undurable > 0 else { return false }
        if sinceLast >= interval { return true }
        let threshold = max(256 << 10, (total ?? 0) / 128)
        return sinceLast >= Self.spacing && undurable >= threshold
    }
}
