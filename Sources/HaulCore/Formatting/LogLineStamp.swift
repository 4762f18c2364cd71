import Foundation

/// A message as lines of a log file (`haul.log`): each line begins with the moment it was written, ISO 8601 with
/// the zone's offset (`TimestampFormat`, the same figure as a JSON event's `"time"`). Pure; any thread.
public enum LogLineStamp {
    /// `text` with `moment` before each of its lines.
    public static func stamped(_ text: String, at moment: Date, in zone: TimeZone = .current) -> String {
        let stamp = TimestampFormat.text(moment, in: zone)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "\(stamp) \($0)" }.joined(separator: "\n")
    }
}
