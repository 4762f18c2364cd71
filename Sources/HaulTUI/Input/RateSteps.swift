import HaulCore

/// The bandwidth caps `[` and `]` step through: none at the top, then 100 MiB/s down to 100 KiB/s.
enum RateSteps {
    static let caps: [RateLimit] = [100 << 20, 50 << 20, 20 << 20, 10 << 20, 5 << 20, 2 << 20, 1 << 20, 512 << 10, 256 << 10, 100 << 10]
        .compactMap(RateLimit.init(bytesPerSecond:))

    /// The next cap below (`down`) or above `current`; nil means none.
    static func step(from current: RateLimit?, down: Bool) -> RateLimit? {
        guard let current else { return down ? caps[0] : nil }
        if down { return caps.first { $0 < current } ?? caps[caps.count - 1] }
        return caps.last { $0 > current }
    }
}
