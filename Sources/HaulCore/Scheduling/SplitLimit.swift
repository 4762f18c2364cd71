/// How many connections one download may use: the one range `-s`, the list's `+`/`-` and the controller accept.
public enum SplitLimit {
    /// Allowed connection counts for one download.
    public static let range: ClosedRange<Int> = 1...16

    /// `value` moved into `range`.
    public static func clamped(_ value: Int) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
