extension HLSPlan {
    /// The query parameters `/hls/NAME/index.m3u8?...` understands, for usage text and error pages.
    public static let queryParameters = """
        segments=N (required)  segsize=S (required)  duration=SECONDS (2)
        seed=S  mediaseq=M  type=MIME (of the playlists)  live=1 (no ENDLIST)
        livestep=K livestart=S window=W
                             a growing live stream: fetch 1 lists S segments (3),
                             each later fetch K more, ENDLIST once all are listed;
                             with W only the last W are listed (older get 404)
        ts=1                 segments are MPEG-TS that ffmpeg can copy (a private
                             data stream; segsize rounded down to 188-byte packets)
        key=1                AES-128-CBC, key 00112233…eeff at key.bin;
        iv=seq               no IV attribute: the IV is the media sequence number
        byterange=1          every segment an EXT-X-BYTERANGE of stream.ts
        variants=N audio=1   a master of N variants (vJ/index.m3u8, BANDWIDTH and
                             RESOLUTION from 540,1080,360,720,240,480 lines), with
                             an AUDIO group rendition (audio/index.m3u8)
        rotate=1             segment links rT/segI.ts: T is the playlist's fetch
                             number; a link from an older fetch gets 403
        expire=N             with rotate=1: a token holds for N segment requests,
                             then its links get 410
        plgone=K             playlist fetches after the first K get 410
        change=K changesegments=N changeduration=D
                             from the playlist's fetch K+1 on, N segments of D s
        conncap=B/s          every TCP connection capped at B/s across its
                             keep-alive requests, whatever their paths
        throttle=B/s         every segment response paced at B/s
        delay=MS             every answer held MS ms before its head (a far server)
        Per segment index I (lists separated by commas; K = first K requests):
        err=I:CODE[:K]       answer CODE (always, or the first K times)
        retryafter=S         Retry-After: S on the err answers that have K
        drop=I:N[:K]         close after N body bytes (K: 1)
        stall=I:N[:K]        go silent after N body bytes (K: 1)
        short=I:N[:K]        announce the length, send N bytes fewer, close (K: 1)
        badpad=I             with key=1: bad PKCS#7 padding (does not decrypt)
        keyerr=CODE[:K]      the key answers CODE (always, or the first K times)
        Every URI in a playlist carries the same query. Paths:
        /hls/NAME/X.m3u8, [vJ/|audio/][rT/]segI.ts, key.bin, stream.ts.
        GET /stats?path=/hls/NAME/[vJ/]segI.ts counts segment I's requests
        (rotated links count under the path without their token).
        """

    /// Builds a plan from the query of a `/hls/NAME/…` request; nil when `segments` or `segsize` is missing or any
    /// value is malformed. `rawQuery` is the query as sent, which the playlists pass on.
    public static func fromQuery(_ query: [String: String], rawQuery: String, name: String) -> HLSPlan? {
        guard let segments = query["segments"].flatMap(FaultPlan.parseSize), segments > 0, segments <= 1_000_000,
              let size = query["segsize"].flatMap(FaultPlan.parseSize), size > 0, size <= 1 << 30
        else { return nil }
        var plan = HLSPlan(name: name, segments: Int(segments), segmentSize: Int(size), query: rawQuery)
        var valid = true
        if FaultPlan.isTrue(query["ts"]) {
            guard size >= 3 * Int64(MPEGTS.packetSize) else { return nil }
            plan.transportStream = true
            plan.segmentSize = Int(size) / MPEGTS.packetSize * MPEGTS.packetSize
        }
        func number(_ key: String) -> Int? {
            guard let text = query[key] else { return nil }
            guard let value = FaultPlan.parseSize(text), value <= Int64(Int32.max) else {
                valid = false
                return nil
            }
            return Int(value)
        }
        func flag(_ key: String) -> Bool { FaultPlan.isTrue(query[key]) }
        func milliseconds(_ key: String) -> Int? {
            guard let text = query[key] else { return nil }
            guard let seconds = Double(text), seconds >= 0, seconds < 1e6 else {
                valid = false
                return nil
            }
            return Int((seconds * 1000).rounded())
        }

        plan.durationMilliseconds = milliseconds("duration") ?? 2000
        if let text = query["seed"] {
            guard let seed = UInt64(text) else { return nil }
            plan.seed = seed
        }
        plan.mediaSequence = Int64(number("mediaseq") ?? 0)
        plan.encrypted = flag("key")
        plan.implicitIV = query["iv"] == "seq"
        plan.byteRange = flag("byterange")
        plan.live = flag("live")
        if let step = number("livestep"), step > 0 {
            plan.growth = LiveGrowth(start: max(1, number("livestart") ?? 3), step: step, window: number("window").flatMap { $0 > 0 ? $0 : nil })
        }
        plan.variants = min(number("variants") ?? 0, variantHeights.count)
        plan.audio = flag("audio")
        plan.rotate = flag("rotate")
        plan.tokenUses = number("expire").flatMap { $0 > 0 ? $0 : nil }
        plan.playlistFailsAfter = number("plgone")
        if let after = number("change") {
            plan.change = Change(
                afterFetches: after, segments: max(1, number("changesegments") ?? plan.segments),
                durationMilliseconds: milliseconds("changeduration") ?? plan.durationMilliseconds + 1000)
        }
        plan.connectionCap = number("conncap").flatMap { $0 > 0 ? $0 : nil }
        plan.throttle = number("throttle").flatMap { $0 > 0 ? $0 : nil }
        plan.delay = number("delay").flatMap { $0 > 0 ? Duration.milliseconds(min($0, 60_000)) : nil }
        if let type = query["type"] { plan.playlistType = type }
        plan.retryAfter = number("retryafter")
        if let text = query["keyerr"] {
            let parts = text.split(separator: ":").map { Int($0) }
            guard (1...2).contains(parts.count), parts.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
            plan.keyFault = KeyFault(status: parts[0]!, times: parts.count == 2 ? parts[1] : nil)
        }
        let kinds: [(String, ([Int64]) -> SegmentFault?)] = [
            ("err", { $0.count >= 1 && $0.count <= 2 ? .status(Int($0[0]), times: $0.count == 2 ? Int($0[1]) : nil) : nil }),
            ("drop", { $0.count >= 1 && $0.count <= 2 ? .drop(after: $0[0], times: $0.count == 2 ? Int($0[1]) : 1) : nil }),
            ("stall", { $0.count >= 1 && $0.count <= 2 ? .stall(after: $0[0], times: $0.count == 2 ? Int($0[1]) : 1) : nil }),
            ("short", { $0.count >= 1 && $0.count <= 2 ? .short(by: $0[0], times: $0.count == 2 ? Int($0[1]) : 1) : nil }),
            ("badpad", { $0.isEmpty ? .badPadding : nil }),
        ]
        for (key, make) in kinds {
            guard let text = query[key] else { continue }
            for entry in text.split(separator: ",") {
                let fields = entry.split(separator: ":", omittingEmptySubsequences: false)
                guard let index = Int(fields[0]), index >= 0 else { return nil }
                let values = fields.dropFirst().map { FaultPlan.parseSize(String($0)) }
                guard values.allSatisfy({ $0 != nil }), let fault = make(values.map { $0! }) else { return nil }
                plan.faults[index, default: []].append(fault)
            }
        }
        return valid ? plan : nil
    }

    /// Heights of the variants in master order (deliberately not sorted, so "best" is not simply the last line).
    public static let variantHeights = [540, 1080, 360, 720, 240, 480]
    static let variantWidths = [960, 1920, 640, 1280, 426, 854]

    /// `BANDWIDTH` of variant `index`: 4000 bit/s per line of height (540 → 2 160 000).
    public static func bandwidth(ofVariant index: Int) -> Int { variantHeights[index] * 4000 }

    /// `RESOLUTION` of variant `index`, e.g. `960x540`.
    public static func resolution(ofVariant index: Int) -> String { "\(variantWidths[index])x\(variantHeights[index])" }

    /// The variant a client should pick for `--stream-quality best` (highest bandwidth) among this plan's.
    public var bestVariant: Int { (0..<variants).max { Self.bandwidth(ofVariant: $0) < Self.bandwidth(ofVariant: $1) } ?? 0 }
    /// … for `worst` (lowest bandwidth).
    public var worstVariant: Int { (0..<variants).min { Self.bandwidth(ofVariant: $0) < Self.bandwidth(ofVariant: $1) } ?? 0 }
    /// … for a height such as `720`: that height, else nil.
    public func variant(height: Int) -> Int? { (0..<variants).first { Self.variantHeights[$0] == height } }
}
