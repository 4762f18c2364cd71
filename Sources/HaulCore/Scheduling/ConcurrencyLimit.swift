/// How many tasks may run at once: the one bound for `-j`, the live list's `<`/`>` and remote callers.
public enum ConcurrencyLimit {
    public static let range = 1...64
    /// The limit when none was ever set.
    public static let defaultValue = 3
}
