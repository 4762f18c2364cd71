/// Where a stream task stands (DESIGN §9), stored with the task: which variant, its tracks (the variant's media
/// playlist, and a separate audio rendition when it names one), and — the durable truth a resume starts from —
/// how many segments of each track are appended to its part file and the file's length after them, recorded
/// only after `fdatasync`.
public struct StreamInfo: Sendable, Equatable, Codable {
    /// The variant's media playlist first, then its audio rendition if it has its own.
    public var tracks: [StreamTrackInfo]
    /// The chosen variant as shown ("1280x720, 2.5 Mbit/s, avc1.64001f"); nil for a media playlist link.
    public var variant: String?
    /// What picks the same variant again on a resume: its bandwidth and resolution.
    public var variantKey: String?
    /// "AES-128", or nil for clear segments.
    public var encryption: String?
    /// "ts", or "mp4" for fragmented MP4 segments.
    public var container: String
    /// A note for the details pane (how a separate audio rendition is saved, say).
    public var note: String?
    /// A live stream's recording (its gaps, why it ended); nil for video on demand.
    public var live: LiveRecord?
    /// The audio and subtitle renditions the master playlist lists for the variant, and which were taken.
    public var renditions: [StreamRenditionInfo]?

    public init(tracks: [StreamTrackInfo], variant: String? = nil, variantKey: String? = nil, encryption: String? = nil, container: String = "ts") {
        self.tracks = tracks
        self.variant = variant
        self.variantKey = variantKey
        self.encryption = encryption
        self.container = container
    }

    /// Segments in every track.
    public var segmentCount: Int { tracks.reduce(0) { $0 + $1.segmentCount } }
    /// Segments appended and synced in every track.
    public var segmentsDone: Int { tracks.reduce(0) { $0 + $1.segmentsDone } }
    /// Bytes appended and synced in every part file.
    public var appendedBytes: Int64 { tracks.reduce(0) { $0 + $1.appendedBytes } }
    /// Seconds of media (the variant's).
    public var durationSeconds: Double { tracks.first?.durationSeconds ?? 0 }

    /// Nothing appended any more: the stream starts over.
    public mutating func restart() {
        for index in tracks.indices { tracks[index].restart() }
    }

    /// Every segment is in (the stream was published).
    /// A live recording ends with what it recorded.
    public mutating func markComplete() {
        for index in tracks.indices {
            if live != nil {
                tracks[index].segmentCount = tracks[index].segmentsDone
                tracks[index].durationSeconds = tracks[index].doneSeconds
            } else {
                tracks[index].segmentsDone = tracks[index].segmentCount
                tracks[index].doneSeconds = tracks[index].durationSeconds
            }
        }
        if live != nil, live?.ended == nil { live?.ended = "the recording was stopped" }
    }

    /// Whether the total is still an estimate (until every segment is in).
    public var isEstimate: Bool { segmentsDone < segmentCount }

    /// A live recording that has not ended: it has no total.
    public var isRecording: Bool { live != nil && live?.ended == nil }

    /// The whole stream's size, each track estimated from the bytes per second of media appended so far (or,
    /// before any, from the variant's `bandwidth`); nil when nothing tells, or when the playlist's numbers make
    /// it more than `StatedSize.limit` (a hostile `BANDWIDTH`, say). Exact once every segment is in.
    public func estimatedTotal(bandwidth: Int64? = nil) -> Int64? {
        if live != nil { return isEstimate || isRecording ? nil : appendedBytes }
        if !isEstimate { return appendedBytes }
        var total: Int64 = 0
        for track in tracks {
            guard let estimate = track.estimatedTotal else {
                guard let bandwidth, bandwidth > 0 else { return nil }
                return Self.estimate(Double(bandwidth) / 8 * durationSeconds)
            }
            guard estimate <= StatedSize.limit - total else { return nil }
            total += estimate
        }
        return total
    }

    /// `bytes` as an estimate: nil when it is not a number of bytes a file can have.
    static func estimate(_ bytes: Double) -> Int64? {
        bytes.roundedInt64().flatMap { (0...StatedSize.limit).contains($0) ? $0 : nil }
    }

    /// "seg 120/480"; a live recording's "● REC 12:34" (the media recorded), with its gaps.
    public var segmentFigure: String {
        guard let live else { return "seg \(segmentsDone)/\(segmentCount)" }
        let gaps = live.gaps.isEmpty ? "" : " (\(live.gaps.count) gap\(live.gaps.count == 1 ? "" : "s"))"
        return (isRecording ? "● REC " : "recorded ") + DurationFormat.clock(tracks.first?.doneSeconds ?? 0) + gaps
    }
}

/// One media playlist of a stream and how far its part file got.
public struct StreamTrackInfo: Sendable, Equatable, Codable {
    /// What identifies the media playlist across fetches (its links may rotate).
    public var fingerprint: StreamFingerprint
    public var segmentCount: Int
    /// Segments appended to its part file and synced.
    public var segmentsDone: Int = 0
    /// The part file's length after `segmentsDone` segments.
    public var appendedBytes: Int64 = 0
    /// Seconds of media in all, and in the appended segments.
    public var durationSeconds: Double
    public var doneSeconds: Double = 0
    /// The rendition's name for an audio track ("English"); nil for the variant's own.
    public var rendition: String?
    /// A live track's last appended segment (its media sequence number), where a resumed recording goes on.
    public var lastSequence: Int64?

    public init(fingerprint: StreamFingerprint, segmentCount: Int, durationSeconds: Double, rendition: String? = nil) {
        self.fingerprint = fingerprint
        self.segmentCount = segmentCount
        self.durationSeconds = durationSeconds
        self.rendition = rendition
    }

    public init(_ media: MediaPlaylist, rendition: String? = nil) {
        self.init(fingerprint: StreamFingerprint(media), segmentCount: media.segments.count, durationSeconds: media.duration, rendition: rendition)
    }

    public mutating func restart() {
        segmentsDone = 0
        appendedBytes = 0
        doneSeconds = 0
    }

    /// Its size from the bytes per second of media appended so far; nil before any, and while the durations
    /// make it no size a file can have (a first segment of 1e-300 s).
    public var estimatedTotal: Int64? {
        if segmentsDone >= segmentCount { return appendedBytes }
        guard doneSeconds > 0, appendedBytes > 0 else { return nil }
        return StreamInfo.estimate(Double(appendedBytes) / doneSeconds * durationSeconds)
    }
}

/// What a live recording keeps besides its tracks' figures (DESIGN §11).
public struct LiveRecord: Sendable, Equatable, Codable {
    /// Segments that left the playlist's window before they were fetched: never skipped silently. At most `maxGaps`
    /// entries; the last counts any after them.
    public var gaps: [LiveGap] = []
    public static let maxGaps = 1000
    /// Why the recording ended ("the stream ended", "--live-limit 12s"); nil while it records.
    public var ended: String?

    public init(gaps: [LiveGap] = [], ended: String? = nil) {
        self.gaps = gaps
        self.ended = ended
    }

    /// Records `gap`; past `maxGaps` the last entry counts it, so a stream that skips at every reload cannot grow
    /// the task's record without bound.
    public mutating func note(_ gap: LiveGap) {
        guard gaps.count >= Self.maxGaps, let last = gaps.indices.last else { return gaps.append(gap) }
        gaps[last].segments = gaps[last].segments.addingReportingOverflow(gap.segments).partialValue
    }

    /// Segments missed in all.
    public var missedSegments: Int64 { gaps.reduce(0) { $0.addingReportingOverflow($1.segments).partialValue } }
}

/// Segments of a live stream the recording missed: how many, and after how many seconds of recorded media.
public struct LiveGap: Sendable, Equatable, Codable {
    public var segments: Int64
    public var atSeconds: Double

    public init(segments: Int64, atSeconds: Double) {
        self.segments = segments
        self.atSeconds = atSeconds
    }
}

/// An audio or subtitle rendition of a stream's variant as the task shows it (details, `haul list --json`).
public struct StreamRenditionInfo: Sendable, Equatable, Codable {
    /// "audio" or "subtitles".
    public var kind: String
    public var name: String
    public var language: String?
    public var isDefault: Bool
    /// Fetched with the video (`--stream-audio`, `--stream-subs`).
    public var chosen: Bool

    public init(kind: String, name: String, language: String?, isDefault: Bool, chosen: Bool) {
        self.kind = kind
        self.name = name
        self.language = language
        self.isDefault = isDefault
        self.chosen = chosen
    }

    /// The renditions of `variant`'s audio and subtitle groups in `master`, those taken marked; nil when it names
    /// none.
    public static func list(
        _ master: MasterPlaylist, variant: Variant, audio: Rendition?, subtitles choice: SubtitleChoice
    ) -> [StreamRenditionInfo]? {
        let taken = master.subtitles(for: variant, choice)
        let listed = master.renditions.filter { rendition in
            (rendition.type == .audio && rendition.groupID == variant.audioGroup)
                || (rendition.type == .subtitles && rendition.groupID == variant.subtitleGroup)
        }
        guard !listed.isEmpty else { return nil }
        return listed.prefix(64).map { rendition in
            StreamRenditionInfo(
                kind: rendition.type == .audio ? "audio" : "subtitles", name: rendition.name, language: rendition.language,
                isDefault: rendition.isDefault, chosen: rendition == audio || taken.contains(rendition))
        }
    }

    /// "audio: English (eng, chosen), Deutsch (deu)".
    public static func text(_ renditions: [StreamRenditionInfo], kind: String) -> String? {
        let of = renditions.filter { $0.kind == kind }
        guard !of.isEmpty else { return nil }
        return of.map { rendition in
            let details = [rendition.language, rendition.chosen ? "chosen" : nil].compactMap { $0 }
            return rendition.name.escapingAllControlCharacters + (details.isEmpty ? "" : " (" + details.joined(separator: ", ").escapingAllControlCharacters + ")")
        }.joined(separator: ", ")
    }
}
