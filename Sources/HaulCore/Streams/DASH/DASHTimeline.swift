/// The segments' media times and lengths of a `SegmentTemplate`, in its timescale's ticks: from a
/// `SegmentTimeline` (`S t d r`, `r="-1"` repeating to the Period's end) or from a fixed `duration` over the
/// Period. Counts are checked before anything is expanded, so a hostile repeat cannot make millions of entries.
enum DASHTimeline {
    struct Span: Equatable {
        var time: Int64
        var duration: Int64
    }

    static func spans(_ timeline: XMLNode, timescale: Int64, periodSeconds: Double?, offset: Int64) throws(PlaylistError) -> [Span] {
        var spans: [Span] = []
        var time = offset
        let entries = timeline.all("S")
        for (index, entry) in entries.enumerated() {
            if let start = entry["t"] {
                guard let value = Int64(start), value >= 0, value <= Int64.max / 4 else {
                    throw PlaylistError(line: nil, .outOfRange("S t", start, limit: "0–\(Int64.max / 4)"))
                }
                time = value
            }
            guard let text = entry["d"], let duration = Int64(text), duration > 0, duration <= Int64.max / 4 else {
                throw PlaylistError(line: nil, .outOfRange("S d", entry["d"] ?? "", limit: "1–\(Int64.max / 4)"))
            }
            var repeats = Int64(entry["r"] ?? "0") ?? -2
            if repeats < 0 {
                guard repeats == -1 else { throw PlaylistError(line: nil, .malformedTag("S r")) }
                // Up to the next entry's start, else the Period's end.
                let end: Double
                if index + 1 < entries.count, let next = entries[index + 1]["t"].flatMap(Int64.init) {
                    end = Double(next)
                } else if let periodSeconds {
                    end = Double(offset) + periodSeconds * Double(timescale)
                } else {
                    throw PlaylistError(line: nil, .manifest("a SegmentTimeline repeats to the end of a Period whose length is not given"))
                }
                let count = ((end - Double(time)) / Double(duration)).rounded(.up)
                repeats = Int64(min(max(0, count - 1), Double(PlaylistParser.maxSegments)))
            }
            guard repeats < Int64(PlaylistParser.maxSegments) - Int64(spans.count) else {
                throw PlaylistError(line: nil, .tooManySegments(limit: PlaylistParser.maxSegments))
            }
            for _ in 0...repeats {
                spans.append(Span(time: time, duration: duration))
                let (next, overflow) = time.addingReportingOverflow(duration)
                guard !overflow, next <= Int64.max / 2 else { throw PlaylistError(line: nil, .outOfRange("S t", String(time), limit: "\(Int64.max / 2)")) }
                time = next
            }
        }
        return spans
    }

    /// Segments of `duration` ticks filling a Period of `periodSeconds`.
    static func spans(duration: Int64, timescale: Int64, periodSeconds: Double?) throws(PlaylistError) -> [Span] {
        guard let periodSeconds else {
            throw PlaylistError(line: nil, .manifest("segments of a fixed duration in a Period whose length is not given"))
        }
        let count = (periodSeconds * Double(timescale) / Double(duration)).rounded(.up)
        guard count.isFinite, count <= Double(PlaylistParser.maxSegments) else {
            throw PlaylistError(line: nil, .tooManySegments(limit: PlaylistParser.maxSegments))
        }
        var spans: [Span] = []
        for index in 0..<Int64(max(1, count)) {
            let (time, overflow) = index.multipliedReportingOverflow(by: duration)
            guard !overflow else { throw PlaylistError(line: nil, .outOfRange("SegmentTemplate duration", String(duration), limit: "a time within 64 bits")) }
            spans.append(Span(time: time, duration: duration))
        }
        return spans
    }
}
