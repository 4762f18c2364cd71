/// Time left as short fixed-width text for the ETA column: `45s`, `2m11s`, `6h20m`, `3d04h`; `—` when unknown.
///
/// Kept private to HaulTUI until HaulCore's `DurationFormat.eta` lands; then the builder should use that one.
enum EtaText {
    static func format(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "—" }
        let total = Int(seconds.rounded(.up))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\(total / 60)m\(twoDigits(total % 60))s" }
        if total < 86_400 { return "\(total / 3600)h\(twoDigits(total % 3600 / 60))m" }
        let days = total / 86_400
        return days > 99 ? ">99d" : "\(days)d\(twoDigits(total % 86_400 / 3600))h"
    }

    /// Seconds until a retry, as `retry in 12s` / `retry in 3m05s`.
    static func retry(in seconds: Double) -> String {
        "retry in \(format(max(0, seconds)))"
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
