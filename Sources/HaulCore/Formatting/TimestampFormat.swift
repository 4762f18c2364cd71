import Foundation

/// A moment as ISO 8601 with milliseconds and the zone's offset (`2026-11-27T10:47:35.120+01:00`), for JSON events:
/// sortable, and unambiguous across a change of zone or daylight saving time. The arithmetic is `UTCTimestamp`'s
/// (no `Calendar`, so no ICU tables) on the moment moved by the offset. Pure; any thread.
public enum TimestampFormat {
    public static func text(_ date: Date, in zone: TimeZone = .current) -> String {
        let offset = zone.secondsFromGMT(for: date)
        let local = UTCTimestamp.text(date.addingTimeInterval(TimeInterval(offset)))
        let minutes = abs(offset) / 60
        return local.replacingOccurrences(of: " ", with: "T") + (offset < 0 ? "-" : "+")
            + (minutes / 60).zeroPadded(to: 2) + ":" + (minutes % 60).zeroPadded(to: 2)
    }
}
