import HaulCore

/// A token bucket that caps one TCP connection's body bytes across all its keep-alive requests.
///
/// It starts full with `burst` bytes and refills at `rate` bytes per second, never above `burst`, so a
/// new request on the same connection gets no fresh allowance: it continues where the last one left the
/// bucket, as a CDN or file host that caps each connection behaves (unlike nginx's `limit_rate`, which
/// grants every request about a second of unthrottled data). Owned by the connection's thread.
struct ConnectionBucket {
    /// Bytes a connection may send at once after being idle.
    static let burst = 64 * 1024

    /// Bytes per second; may change between requests (the bucket's level is kept).
    var rate: Int
    private(set) var tokens: Double
    private var refilled: ContinuousClock.Instant

    init(rate: Int, now: ContinuousClock.Instant = .now) {
        self.rate = max(1, rate)
        tokens = Double(Self.burst)
        refilled = now
    }

    /// The largest slice to send at once: small enough that sends stay smooth (about 50 per second).
    var sliceSize: Int { min(Self.burst, max(1, rate / 50)) }

    /// When `count` bytes (at most `burst`) may go, given the level at `now`; takes them from the bucket.
    ///
    /// The bucket may run into debt for bytes that go later: the returned instant is when it is back at zero.
    mutating func take(_ count: Int, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let seconds = refilled.duration(to: now).inSeconds
        tokens = min(Double(Self.burst), tokens + max(0, seconds) * Double(rate))
        refilled = now
        tokens -= Double(count)
        guard tokens < 0 else { return now }
        return now + .nanoseconds(Int64((-tokens / Double(rate) * 1e9).rounded(.up)))
    }
}
