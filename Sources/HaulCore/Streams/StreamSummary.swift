/// A stream in one line of text, for the headless log and the details pane: "480 segments, 16:00, 1280x720,
/// 2.5 Mbit/s, AES-128".
public enum StreamSummary {
    public static func text(_ info: StreamInfo) -> String {
        var parts = ["\(info.segmentCount) segments", DurationFormat.clock(info.durationSeconds)]
        if let live = info.live {
            let recorded = DurationFormat.clock(info.tracks.first?.doneSeconds ?? 0)
            parts = [live.ended.map { "live, recorded \(recorded) (\($0))" } ?? "live, recording \(recorded)"]
            if !live.gaps.isEmpty {
                parts.append("\(live.gaps.count) gap\(live.gaps.count == 1 ? "" : "s") (\(live.missedSegments) segment\(live.missedSegments == 1 ? "" : "s") missed)")
            }
        }
        if let variant = info.variant { parts.append(variant) }
        if let encryption = info.encryption { parts.append(encryption) }
        if info.container == "mp4" { parts.append("fMP4") }
        return parts.joined(separator: ", ")
    }
}
