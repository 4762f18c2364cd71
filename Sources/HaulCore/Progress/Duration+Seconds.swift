extension Duration {
    /// The duration in seconds, as a floating-point number (rates and refills are computed with it).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
