/// What identifies a media playlist across fetches (DESIGN §9): its first media sequence number, its segment
/// count and every segment's duration — not its URIs, which signed links rotate. A resume fetches the playlist
/// again and continues only when the fingerprint is the same.
public struct StreamFingerprint: Sendable, Equatable, Codable {
    public var mediaSequence: Int64
    public var segmentCount: Int
    /// FNV-1a over each duration in whole milliseconds.
    public var durations: UInt64

    public init(mediaSequence: Int64, segmentCount: Int, durations: UInt64) {
        self.mediaSequence = mediaSequence
        self.segmentCount = segmentCount
        self.durations = durations
    }

    public init(_ playlist: MediaPlaylist) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for segment in playlist.segments {
            var milliseconds = UInt64(bitPattern: (segment.duration * 1000).clampedInt64())
            for _ in 0..<8 {
                hash = (hash ^ (milliseconds & 0xFF)) &* 0x0000_0100_0000_01B3
                milliseconds >>= 8
            }
        }
        self.init(mediaSequence: playlist.mediaSequence, segmentCount: playlist.segments.count, durations: hash)
    }

    /// Why `other` (the playlist fetched again) is not the same stream, nil when it is.
    public func mismatch(_ other: StreamFingerprint) -> String? {
        if other.mediaSequence != mediaSequence {
            return "the playlist now starts at segment \(other.mediaSequence), not \(mediaSequence)"
        }
        if other.segmentCount != segmentCount {
            return "the playlist now has \(other.segmentCount) segments, not \(segmentCount)"
        }
        if other.durations != durations { return "the playlist's segment durations changed" }
        return nil
    }
}
