/// Where a stream task stands (DESIGN §9), stored with the task: which variant, how many segments, and — the
/// durable truth a resume starts from — how many segments are appended to the part file and its length after
/// them, recorded only after `fdatasync`.
public struct StreamInfo: Sendable, Equatable, Codable {
    /// What identifies the media playlist across fetches (its links may rotate).
    public var fingerprint: StreamFingerprint
    /// Segments in the media playlist.
    public var segmentCount: Int
    /// Segments appended to the part file and synced.
    public var segmentsDone: Int
    /// The part file's length after `segmentsDone` segments.
    public var appendedBytes: Int64
    /// Seconds of media in all.
    public var durationSeconds: Double
    /// Seconds of media in the appended segments.
    public var doneSeconds: Double = 0
    /// The chosen variant as shown ("1280x720, 2.5 Mbit/s, avc1.64001f"); nil for a media playlist link.
    public var variant: String?
    /// What picks the same variant again on a resume: its bandwidth and resolution.
    public var variantKey: String?
    /// "AES-128", or nil for clear segments.
    public var encryption: String?
    /// "ts", or "mp4" for fragmented MP4 segments.
    public var container: String
    /// A note for the details pane (an audio rendition kept beside the video, say).
    public var note: String?

    public init(
        fingerprint: StreamFingerprint, segmentCount: Int, segmentsDone: Int = 0, appendedBytes: Int64 = 0,
        durationSeconds: Double, variant: String? = nil, variantKey: String? = nil, encryption: String? = nil,
        container: String = "ts"
    ) {
        self.fingerprint = fingerprint
        self.segmentCount = segmentCount
        self.segmentsDone = segmentsDone
        self.appendedBytes = appendedBytes
        self.durationSeconds = durationSeconds
        self.variant = variant
        self.variantKey = variantKey
        self.encryption = encryption
        self.container = container
    }

    /// Nothing appended any more: the stream starts over.
    public mutating func restart() {
        segmentsDone = 0
        appendedBytes = 0
        doneSeconds = 0
    }

    /// Whether the total is still an estimate (until every segment is in).
    public var isEstimate: Bool { segmentsDone < segmentCount }

    /// The whole stream's size, estimated from the bytes per second of media appended so far; nil before any.
    /// Exact once every segment is in.
    public func estimatedTotal(bandwidth: Int64? = nil) -> Int64? {
        if !isEstimate { return appendedBytes }
        if doneSeconds > 0, appendedBytes > 0 {
            return Int64((Double(appendedBytes) / doneSeconds * durationSeconds).rounded())
        }
        guard let bandwidth, bandwidth > 0 else { return nil }
        return Int64((Double(bandwidth) / 8 * durationSeconds).rounded())
    }

    /// The variant as the row's short form shows it, and "seg 120/480".
    public var segmentFigure: String { "seg \(segmentsDone)/\(segmentCount)" }
}
