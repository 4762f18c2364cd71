/// How a live HLS playlist is recorded (DESIGN §11, RFC 8216 §6.3): where a recording joins the window the playlist
/// lists, what each reload adds, when the next reload is due, and where `--live-limit` ends it. A pure value: the
/// engine asks it with the playlists it fetched.
public enum LiveRecording {
    /// A recording joins this many segments before the live edge, as players do (§6.3.3: not less than three
    /// target durations from the end; ffmpeg and yt-dlp take the last three).
    public static let joinSegments = 3

    /// Where a recording starts in `media`, the window a live playlist lists now: right after `lastSequence`, the
    /// last segment a recording before it appended (a resumed one), when the window still lists what follows it
    /// (else at the window's first, the nearest to it); a new recording at the live edge. `missed` counts the segments
    /// between `lastSequence` and the join that left the window before they were fetched: a gap.
    public static func join(_ media: MediaPlaylist, after lastSequence: Int64?) -> (index: Int, missed: Int64) {
        let count = media.segments.count
        guard let lastSequence else { return (max(0, count - joinSegments), 0) }
        let next = lastSequence.addingReportingOverflow(1)
        guard !next.overflow else { return (count, 0) }
        let first = media.mediaSequence
        if next.partialValue < first { return (0, first - next.partialValue) }
        let offset = next.partialValue - first
        return (Int(min(offset, Int64(count))), 0)
    }

    /// What a reload adds after `lastSequence`, the last segment the recording has taken: the segments after it, and
    /// how many between it and them left the window unseen (a gap). A playlist that lists nothing after it (an older
    /// copy from a cache, say) adds nothing.
    public static func added(_ fresh: MediaPlaylist, after lastSequence: Int64) -> (segments: ArraySlice<MediaSegment>, missed: Int64) {
        let (next, overflow) = lastSequence.addingReportingOverflow(1)
        guard !overflow else { return ([], 0) }
        let first = fresh.mediaSequence
        if next < first { return (fresh.segments[...], first - next) }
        let offset = next - first
        guard offset < Int64(fresh.segments.count) else { return ([], 0) }
        return (fresh.segments[Int(offset)...], 0)
    }

    /// Seconds until the next reload (§6.3.4): the target duration after a reload that added segments, half of it
    /// after one that did not; never under half a second, whatever the playlist says.
    public static func reloadDelay(targetDuration: Int, changed: Bool) -> Double {
        let target = Double(max(1, min(targetDuration, 3600)))
        return max(0.5, changed ? target : target / 2)
    }

    /// Seconds without a new segment after which a live stream is taken to have stopped (its producer died without
    /// ending the playlist): three target durations, at least 10 s (ffmpeg and yt-dlp wait for ever).
    public static func stallSeconds(targetDuration: Int) -> Double {
        max(10, 3 * Double(max(1, min(targetDuration, 3600))))
    }

    /// How many of `segments` to take when `recorded` seconds are in and the recording stops at `limit` seconds
    /// (nil: no limit): every segment that starts before the limit, so the recording holds at least the limit.
    public static func within(limit: Double?, recorded: Double, _ segments: ArraySlice<MediaSegment>) -> Int {
        guard let limit else { return segments.count }
        var seconds = recorded
        var taken = 0
        for segment in segments {
            guard seconds < limit else { break }
            seconds += segment.duration
            taken += 1
        }
        return taken
    }
}
