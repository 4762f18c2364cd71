/// Durations as short, locale-independent text for table columns.
public enum DurationFormat {
    /// ETA text in at most two units: `45s`, `3m05s`, `2h07m`, `3d04h`; `—` when unknown.
    ///
    /// Seconds are rounded up (so a running task never shows `0s` with bytes still to come) and the
    /// smaller unit is then cut, not rounded. Negative values show `0s`; a hundred days or more `>99d`.
    /// At most six characters wide.
    public static func eta(_ seconds: Double?) -> String {
        guard let seconds, !seconds.isNaN else { return "—" }
        guard seconds < Double(maxDays * 86_400) else { return ">\(maxDays - 1)d" }
        let total = seconds > 0 ? Int(seconds.rounded(.up)) : 0
        switch total {
        case ..<60:
            return "\(total)s"
        case ..<3600:
            return "\(total / 60)m\((total % 60).zeroPadded(to: 2))s"
        case ..<86_400:
            return "\(total / 3600)h\((total / 60 % 60).zeroPadded(to: 2))m"
        default:
            return "\(total / 86_400)d\((total / 3600 % 24).zeroPadded(to: 2))h"
        }
    }

    /// From this many days on, `eta` gives up on precision.
    static let maxDays = 100
}
