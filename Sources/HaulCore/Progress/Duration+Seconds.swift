extension Duration {
    /// The duration in seconds, as a floating-point number (rates and refills are computed with it).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

extension Duration {
    /// `seconds` as a duration, kept within 0…`limit` (NaN is 0): waits and intervals read from a server or a
    /// setting never trap and never last forever.
    public static func seconds(within limit: Double, _ seconds: Double) -> Duration {
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), limit)
        return .milliseconds(Int64(bounded * 1000))
    }
}
