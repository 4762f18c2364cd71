/// How many tasks may run at once: the one range `-j`, the live list's `<`/`>`, remote callers and the controller accept.
public enum ConcurrencyLimit {
    /// Allowed values of the concurrency limit.
    public static let range: ClosedRange<Int> = 1...64
    /// The limit when none was ever set.
    public static let defaultValue = 3

    /// `value` moved into `range`.
    public static func clamped(_ value: Int) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
