/// Progress as a percentage with one decimal, the same text in the live list, the details pane,
/// headless summaries and `haul list`.
public enum PercentFormat {
    /// `55.2%` for 0.552. The tenths are cut, not rounded, so `100.0%` appears only when every byte is
    /// there (a fraction below 1 shows at most `99.9%`); fractions outside 0…1 are clamped.
    public static func text(fraction: Double) -> String {
        guard !fraction.isNaN else { return "—" }
        let clamped = min(1, max(0, fraction))
        var tenths = Int((clamped * 1000).rounded(.down))
        if clamped < 1 { tenths = min(tenths, 999) }
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// The percentage of `total` that `done` is; `100.0%` for a complete task (also one of 0 bytes or
    /// unknown size); `—` when the total is unknown or zero and the task is not complete.
    public static func text(done: Int64, total: Int64?, isComplete: Bool) -> String {
        if isComplete { return "100.0%" }
        guard let total, total > 0 else { return "—" }
        return text(fraction: Double(max(0, done)) / Double(total))
    }
}
