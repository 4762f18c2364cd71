import HaulCore

/// How long one range connection waits after a busy server refused it (503 Service Unavailable, 429 Too Many
/// Requests) before it asks again, while the task's other connections go on.
///
/// The server's `Retry-After` when it gave one (within an hour); otherwise half a second, doubling with each
/// refusal since a connection last finished its range, up to 30 s. Refusals that come together (a host that
/// allows a few requests a second refusing several connections at once) so wait different times and come
/// back one after another instead of all at once.
enum ConnectionBackOff {
    /// Busy refusals in a row that wait; the next counts as a failure of the link.
    static let maxStreak = 10
    static let first = 0.5
    static let longest = 30.0

    /// The wait after the `streak`-th refusal in a row (from 1).
    static func wait(streak: Int, retryAfter: Double?) -> Duration {
        if let retryAfter, retryAfter > 0 { return .seconds(within: 3600, retryAfter) }
        let doubled = first * Double(1 << min(max(streak, 1) - 1, 16))
        return .seconds(within: longest, doubled)
    }
}
