/// A generated HLS stream served under `/hls/NAME/…`, read from the query every one of its URIs carries.
///
/// Segment `i` of a track is `segmentSize` pseudo-random bytes seeded by the stream's name (or `seed`), the
/// track and `i`, so a test computes what a client must write (`clearOutput(track:)`) without keeping any file.
/// Faults are chosen per segment index and apply to that index in every track. See `queryParameters`.
public struct HLSPlan: Sendable, Equatable {
    /// Which playlist of the stream: the top one, a variant of the master, or the audio rendition.
    public enum Track: Sendable, Hashable, CustomStringConvertible {
        case main
        case variant(Int)
        case audio

        /// The directory of its URIs under `/hls/NAME/`: "", "vJ/" or "audio/".
        public var directory: String {
            switch self {
            case .main: ""
            case .variant(let index): "v\(index)/"
            case .audio: "audio/"
            }
        }

        public var description: String { directory.isEmpty ? "main" : String(directory.dropLast()) }
    }

    /// A fault of one segment index; `times` counts the requests for the segment since the server started (nil: always).
    public enum SegmentFault: Sendable, Equatable {
        /// Answer `status` (a small HTML page), with `Retry-After` when the plan has `retryAfter` and `times` is set.
        case status(Int, times: Int?)
        /// Close the connection after this many body bytes.
        case drop(after: Int64, times: Int)
        /// Go silent after this many body bytes, socket open.
        case stall(after: Int64, times: Int)
        /// Announce the true length, send this many bytes fewer, then close.
        case short(by: Int64, times: Int)
        /// The ciphertext's last block decrypts to a zero byte: its PKCS#7 padding is wrong (with `key=1`).
        case badPadding
    }

    /// An error status for the key's requests.
    public struct KeyFault: Sendable, Equatable {
        public var status: Int
        /// The first this many requests (nil: every one).
        public var times: Int?
    }

    /// How the playlist reads from a given fetch on (`change=K`).
    public struct Change: Sendable, Equatable {
        /// The playlist changes from fetch `afterFetches + 1` on.
        public var afterFetches: Int
        public var segments: Int
        public var durationMilliseconds: Int
    }

    public var name: String
    public var segments: Int
    public var segmentSize: Int
    /// Every `EXTINF`, in milliseconds (text with three decimals).
    public var durationMilliseconds: Int = 2000
    /// nil: derived from the name.
    public var seed: UInt64?
    public var mediaSequence: Int64 = 0
    /// AES-128: every segment encrypted with `HLSPlan.key`; the key at `key.bin`.
    public var encrypted = false
    /// No `IV` attribute: each segment's IV is its media sequence number (RFC 8216 §5.2); else `explicitIV` in the tag.
    public var implicitIV = false
    /// `EXT-X-BYTERANGE`: every segment is a range of one file, `stream.ts` (the served segments end to end).
    public var byteRange = false
    /// Segments are MPEG-TS (a private data stream) that ffmpeg demuxes, in whole 188-byte packets.
    public var transportStream = false
    /// No `EXT-X-ENDLIST`.
    public var live = false
    /// A live stream that grows: the first playlist fetch lists `liveStart` segments, each later one `step` more,
    /// until all `segments` are listed with `EXT-X-ENDLIST`. With `window`, a playlist lists only its last `window`
    /// segments (a sliding window: older segments answer 404).
    public var growth: LiveGrowth?
    public struct LiveGrowth: Sendable, Equatable {
        public var start: Int
        public var step: Int
        public var window: Int?
    }
    /// The top playlist is a master of this many variants (0: a media playlist).
    public var variants = 0
    /// The variants name an `AUDIO` group whose default rendition is `audio/index.m3u8`.
    public var audio = false
    /// Segment links carry a token (`rN/segI.ts`) that changes on every playlist fetch; a stale token gets 403.
    public var rotate = false
    /// With `rotate`: a token holds for this many segment requests, then its links answer 410 Gone (signed links
    /// that expire while the stream downloads); a playlist fetched again hands out a fresh token.
    public var tokenUses: Int?
    /// Playlist fetches after this many answer 410 Gone, and so do segments asked after them (a link that expired).
    public var playlistFailsAfter: Int?
    public var change: Change?
    /// Every TCP connection capped at this many bytes per second across its keep-alive requests (any path).
    public var connectionCap: Int?
    /// Every segment response paced at this many bytes per second.
    public var throttle: Int?
    /// Every answer (playlists, keys, segments) held this long before its head: a round trip to a far server.
    public var delay: Duration?
    /// The playlists' Content-Type.
    public var playlistType = "application/vnd.apple.mpegurl"
    public var faults: [Int: [SegmentFault]] = [:]
    /// Sent with every `status` fault that has `times`.
    public var retryAfter: Int?
    /// The key answers this status (a page) to its first `times` requests (nil: always).
    public var keyFault: KeyFault?
    /// The query as received (percent-encoded, without `?`), appended to every URI the playlists list.
    public var query: String

    public init(name: String, segments: Int, segmentSize: Int, query: String) {
        self.name = name
        self.segments = segments
        self.segmentSize = segmentSize
        self.query = query
    }

    /// The AES-128 key every encrypted stream uses (served at `key.bin`).
    public static let key: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]
    /// The IV written into `EXT-X-KEY` unless `iv=seq` (as ffmpeg writes one IV for every segment).
    public static let explicitIV: [UInt8] = (0..<16).map { UInt8(15 - $0) }

    /// The segment count of the playlist served at fetch `fetch` (1-based).
    public func segmentCount(atFetch fetch: Int) -> Int {
        guard let change, fetch > change.afterFetches else { return segments }
        return change.segments
    }

    /// The `EXTINF` duration (milliseconds) of the playlist served at fetch `fetch`.
    public func durationMilliseconds(atFetch fetch: Int) -> Int {
        guard let change, fetch > change.afterFetches else { return durationMilliseconds }
        return change.durationMilliseconds
    }

    /// The segments listed at playlist fetch `fetch` (1-based; 0 before any: the first fetch's), and whether the list
    /// has ended.
    public func listed(atFetch fetch: Int) -> (range: Range<Int>, ended: Bool) {
        let count = segmentCount(atFetch: fetch)
        guard let growth else { return (0..<count, !live) }
        let (grown, overflow) = growth.step.multipliedReportingOverflow(by: max(fetch, 1) - 1)
        let end = overflow ? count : min(count, growth.start + grown)
        let first = growth.window.map { max(0, end - $0) } ?? 0
        return (first..<end, end == count)
    }

    /// Any index a playlist of this plan may list.
    var highestSegmentCount: Int { max(segments, change?.segments ?? 0) }

    /// The faults of segment `index`.
    public func faults(of index: Int) -> [SegmentFault] { faults[index] ?? [] }
}
