/// Time left for a download: remaining bytes over the smoothed speed.
public enum EtaEstimate {
    /// Slower than this (bytes per second) counts as no speed at all: the estimate would be meaningless.
    public static let minimumSpeed: Double = 0.001

    /// Seconds left; nil when the total or the speed is unknown, or the speed is about 0.
    ///
    /// 0 when `done` has reached `total`; never negative.
    public static func seconds(done: Int64, total: Int64?, bytesPerSecond: Double?) -> Double? {
        guard let total, let bytesPerSecond, bytesPerSecond.isFinite, bytesPerSecond >= minimumSpeed else {
            return nil
        }
        let remaining = total - max(done, 0)
        guard remaining > 0 else { return 0 }
        return Double(remaining) / bytesPerSecond
    }
}
