/// Expands chosen representations into segments, Period after Period, within the bounds a playlist has: at most
/// `PlaylistParser.maxSegments` segments and `maxResolvedBytes` of links for the whole manifest, every number in
/// range, every link http(s).
struct DASHExpansion {
    private var segmentCount = 0
    private var linkBytes = 0
    /// The `sidx` boxes fetched so far for `SegmentBase` representations.
    let indexes: [DASHIndexRequest: [UInt8]]
    /// The boxes it needed and was not given: fetched, then the manifest resolves again.
    private(set) var missing: [DASHIndexRequest] = []

    /// A live manifest's segments: numbered from their `startNumber` (as its window slides, a segment keeps its
    /// number from one fetch of the manifest to the next), and only those its `SegmentTimeline` or `SegmentList` lists.
    let live: Bool
    let numberedByStart: Bool

    init(indexes: [DASHIndexRequest: [UInt8]], live: Bool = false, numberedByStart: Bool = false) {
        self.indexes = indexes
        self.live = live
        self.numberedByStart = numberedByStart || live
    }

    /// The media playlist of `representations` (one per Period, in order): a discontinuity where a Period begins.
    mutating func media(_ representations: [DASHPeriod.Representation]) throws(PlaylistError) -> MediaPlaylist {
        var all: [MediaSegment] = []
        for (index, representation) in representations.enumerated() {
            if let scheme = representation.protection { throw PlaylistError(line: nil, .drm(scheme)) }
            var expanded = try segments(of: representation, from: Int64(all.count))
            if index > 0, !expanded.isEmpty { expanded[0].discontinuity = true }
            all += expanded
        }
        if !missing.isEmpty { return MediaPlaylist(targetDuration: 1, segments: []) }
        guard let longest = all.map(\.duration).max() else { throw PlaylistError(line: nil, .empty) }
        return MediaPlaylist(
            targetDuration: max(1, Int(longest.rounded(.up))), mediaSequence: all.first?.sequence ?? 0, segments: all, isLive: live)
    }

    private mutating func segments(of representation: DASHPeriod.Representation, from sequence: Int64) throws(PlaylistError) -> [MediaSegment] {
        switch representation.addressing {
        case let .template(attributes, timeline):
            return try template(attributes, timeline: timeline, representation, from: sequence)
        case let .list(attributes, initialization, urls):
            return try list(attributes, initialization: initialization, urls: urls, representation, from: sequence)
        case let .indexedFile(index, initialization):
            let request = DASHIndexRequest(url: representation.base, range: index)
            guard let bytes = indexes[request] else {
                missing.append(request)
                return []
            }
            let section = initialization.map { InitSection(uri: representation.base, byteRange: $0) }
            var segments: [MediaSegment] = []
            for (offset, reference) in try SegmentIndex.parse(bytes, at: index.lowerBound).references.enumerated() {
                segments.append(try segment(
                    sequence + Int64(offset), seconds: reference.seconds, link: representation.base, range: reference.range, init: section))
            }
            return segments
        case .unindexedFile:
            throw PlaylistError(line: nil, .manifest(
                "the video is one file (SegmentBase) without an indexRange; download \(URLValidation.redacted(representation.base)) as a file"))
        case .wholeFile:
            return [try segment(sequence, seconds: representation.periodSeconds ?? 0, link: representation.base, range: nil, init: nil)]
        case let .unreadable(error):
            throw error
        }
    }

    private mutating func template(
        _ attributes: [String: String], timeline: XMLNode?, _ representation: DASHPeriod.Representation, from sequence: Int64
    ) throws(PlaylistError) -> [MediaSegment] {
        let timescale = try number(attributes["timescale"], "timescale", default: 1, in: 1...1_000_000_000_000)
        let startNumber = try number(attributes["startNumber"], "startNumber", default: 1, in: 0...(Int64.max / 4))
        guard let media = attributes["media"] else { throw PlaylistError(line: nil, .malformedTag("SegmentTemplate media")) }
        let values = DASHTemplate.Values(representation: representation.id, bandwidth: representation.variant.bandwidth)
        let initSection = try attributes["initialization"].map { text throws(PlaylistError) in
            InitSection(uri: try link(DASHTemplate.fill(text, values), representation, "SegmentTemplate initialization"))
        }
        let spans: [DASHTimeline.Span]
        if live, timeline == nil {
            throw PlaylistError(line: nil, .manifest(
                "a live DASH manifest addressed by $Number$ and the clock (no SegmentTimeline) is not recorded yet"))
        }
        // Live: numbered from the window's start number, so a segment keeps its number as the window slides.
        let first = numberedByStart ? startNumber : sequence
        if let timeline {
            let offset = try number(attributes["presentationTimeOffset"], "presentationTimeOffset", default: 0, in: 0...(Int64.max / 4))
            spans = try DASHTimeline.spans(timeline, timescale: timescale, periodSeconds: representation.periodSeconds, offset: offset)
        } else {
            let duration = try number(attributes["duration"], "SegmentTemplate duration", default: nil, in: 1...(Int64.max / 4))
            spans = try DASHTimeline.spans(duration: duration, timescale: timescale, periodSeconds: representation.periodSeconds)
        }
        var segments: [MediaSegment] = []
        for (index, span) in spans.enumerated() {
            var filled = values
            filled.number = startNumber + Int64(index)
            filled.time = span.time
            let uri = try link(DASHTemplate.fill(media, filled), representation, "SegmentTemplate media")
            segments.append(try segment(first + Int64(index), seconds: Double(span.duration) / Double(timescale), link: uri, range: nil, init: initSection))
        }
        return segments
    }

    private mutating func list(
        _ attributes: [String: String], initialization: XMLNode?, urls: [XMLNode], _ representation: DASHPeriod.Representation,
        from sequence: Int64
    ) throws(PlaylistError) -> [MediaSegment] {
        let timescale = try number(attributes["timescale"], "timescale", default: 1, in: 1...1_000_000_000_000)
        let duration = try attributes["duration"].map { text throws(PlaylistError) in try number(text, "SegmentList duration", default: 1, in: 1...(Int64.max / 4)) }
        let initSection = try initialization.map { node throws(PlaylistError) in
            InitSection(
                uri: try link(node["sourceURL"] ?? representation.base, representation, "Initialization"),
                byteRange: try node["range"].map { text throws(PlaylistError) in try Self.range(text, "Initialization range") })
        }
        let seconds = duration.map { Double($0) / Double(timescale) } ?? (representation.periodSeconds ?? 0) / Double(max(1, urls.count))
        let first = numberedByStart ? try number(attributes["startNumber"], "startNumber", default: 1, in: 0...(Int64.max / 4)) : sequence
        var segments: [MediaSegment] = []
        for (index, node) in urls.enumerated() {
            let uri = try link(node["media"] ?? representation.base, representation, "SegmentURL")
            let range = try node["mediaRange"].map { text throws(PlaylistError) in try Self.range(text, "SegmentURL mediaRange") }
            segments.append(try segment(first + Int64(index), seconds: seconds, link: uri, range: range, init: initSection))
        }
        return segments
    }

    private mutating func segment(
        _ sequence: Int64, seconds: Double, link: String, range: Range<Int64>?, init section: InitSection?
    ) throws(PlaylistError) -> MediaSegment {
        segmentCount += 1
        guard segmentCount <= PlaylistParser.maxSegments else {
            throw PlaylistError(line: nil, .tooManySegments(limit: PlaylistParser.maxSegments))
        }
        guard seconds.isFinite, seconds >= 0, seconds <= PlaylistParser.maxSegmentSeconds else {
            throw PlaylistError(line: nil, .invalidDuration(String(seconds)))
        }
        return MediaSegment(sequence: sequence, duration: seconds, uri: link, byteRange: range, initSection: section)
    }

    /// `text` (a filled template, nil when it could not be filled) resolved against the representation's base.
    private mutating func link(_ text: String?, _ representation: DASHPeriod.Representation, _ what: String) throws(PlaylistError) -> String {
        guard let text else { throw PlaylistError(line: nil, .malformedTag(what)) }
        let resolved = try DASHLink.resolve(text, against: representation.base, what: what)
        linkBytes += resolved.utf8.count
        guard linkBytes <= PlaylistParser.maxResolvedBytes else {
            throw PlaylistError(line: nil, .linksTooLarge(limit: PlaylistParser.maxResolvedBytes))
        }
        return resolved
    }

    private func number(_ text: String?, _ name: String, default fallback: Int64?, in bounds: ClosedRange<Int64>) throws(PlaylistError) -> Int64 {
        guard let text else {
            guard let fallback else { throw PlaylistError(line: nil, .malformedTag(name)) }
            return fallback
        }
        guard let value = Int64(text), bounds.contains(value) else {
            throw PlaylistError(line: nil, .outOfRange(name, text, limit: "\(bounds.lowerBound)–\(bounds.upperBound)"))
        }
        return value
    }

    /// `first-last` (inclusive, as DASH writes byte ranges) as a range, within 2^62.
    static func range(_ text: String, _ name: String) throws(PlaylistError) -> Range<Int64> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Offsets past 2^62 are no file haul can fetch (as an HLS byte range): refused, so sums on them never overflow.
        guard parts.count == 2, let first = Int64(parts[0]), let last = Int64(parts[1]), first >= 0, last >= first, last < 1 << 62
        else { throw PlaylistError(line: nil, .malformedTag(name)) }
        return first..<last + 1
    }
}
