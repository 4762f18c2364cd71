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

    /// A length of media as a player shows it: `0:59`, `16:00`, `1:02:03` (seconds rounded).
    public static func clock(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(min(seconds, 1e9).rounded()) : 0
        let tail = "\((total / 60 % 60).zeroPadded(to: total >= 3600 ? 2 : 1)):\((total % 60).zeroPadded(to: 2))"
        return total >= 3600 ? "\(total / 3600):" + tail : tail
    }

    /// From this many days on, `eta` gives up on precision.
    static let maxDays = 100
}
