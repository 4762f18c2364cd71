import Foundation

/// One Period of a DASH manifest: its video and audio representations with what each inherits (its links, its
/// segment addressing, its language, its protection), not expanded into segments yet.
struct DASHPeriod {
    /// Video, audio, or WebVTT subtitles as text (`text/vtt`).
    enum Content { case video, audio, text }

    struct Representation {
        var id: String
        var content: Content
        var variant: Variant
        var language: String?
        /// Its `BaseURL`, resolved through every level above it.
        var base: String
        var addressing: DASHAddressing
        /// Seconds the Period lasts, when the manifest says.
        var periodSeconds: Double?
        /// The DRM scheme its `ContentProtection` names, if any.
        var protection: String?
    }

    var index: Int
    var representations: [Representation]

    func representations(_ content: Content) -> [Representation] { representations.filter { $0.content == content } }

    /// The audio beside the video: the highest bandwidth among those in the first of `languages` (`--stream-audio`)
    /// the manifest has, else in the first language listed.
    func bestAudio(languages: [String] = []) -> Representation? {
        let audios = representations(.audio)
        let wanted = languages.lazy.compactMap { language in
            audios.first { Rendition(type: .audio, groupID: "dash", name: $0.id, language: $0.language).speaks(language) }?.language
        }.first
        let language = wanted ?? audios.first?.language
        return audios.filter { $0.language == language }.max { $0.variant.bandwidth < $1.variant.bandwidth }
    }

    /// This Period's representation that continues `chosen` (from the first Period): the same id, else the one of
    /// the same content nearest in bandwidth.
    func counterpart(of chosen: Representation) throws(PlaylistError) -> Representation {
        if let same = representations.first(where: { $0.id == chosen.id && $0.content == chosen.content }) { return same }
        let candidates = representations(chosen.content)
        guard let near = candidates.min(by: { abs($0.variant.bandwidth - chosen.variant.bandwidth) < abs($1.variant.bandwidth - chosen.variant.bandwidth) })
        else {
            throw PlaylistError(line: nil, .manifest("Period \(index + 1) has no \(chosen.content == .video ? "video" : "audio") to go on with"))
        }
        return near
    }

    /// What continues `chosen` (from the first Period) in each of `periods`, in order.
    static func counterparts(of chosen: Representation, in periods: [DASHPeriod]) throws(PlaylistError) -> [Representation] {
        var found: [Representation] = []
        for period in periods { found.append(try period.counterpart(of: chosen)) }
        return found
    }

    /// Every Period of `root` (an `MPD` fetched from `url`), in order, with its start and length worked out.
    static func all(in root: XMLNode, url: String) throws(PlaylistError) -> [DASHPeriod] {
        let base = try DASHLink.base(of: root, over: url)
        let nodes = root.all("Period")
        let total = root["mediaPresentationDuration"].flatMap(DASHDuration.seconds)
        var starts: [Double] = []
        for (index, node) in nodes.enumerated() {
            let previous = index > 0 ? starts[index - 1] + (nodes[index - 1]["duration"].flatMap(DASHDuration.seconds) ?? 0) : 0
            starts.append(node["start"].flatMap(DASHDuration.seconds) ?? previous)
        }
        var periods: [DASHPeriod] = []
        for (index, node) in nodes.enumerated() {
            let end = index + 1 < nodes.count ? starts[index + 1] : total
            let seconds = node["duration"].flatMap(DASHDuration.seconds) ?? end.map { $0 - starts[index] }
            periods.append(try read(node, index: index, base: base, seconds: seconds.flatMap { $0 > 0 ? $0 : nil }))
        }
        return periods
    }

    private static func read(_ period: XMLNode, index: Int, base: String, seconds: Double?) throws(PlaylistError) -> DASHPeriod {
        let periodBase = try DASHLink.base(of: period, over: base)
        var representations: [Representation] = []
        for set in period.all("AdaptationSet") {
            let setBase = try DASHLink.base(of: set, over: periodBase)
            for node in set.all("Representation") {
                guard let content = content(of: node, in: set) else { continue }
                let width = (node["width"] ?? set["width"]).flatMap(Int.init)
                let height = (node["height"] ?? set["height"]).flatMap(Int.init)
                let resolution = width.flatMap { w in height.map { Resolution(width: w, height: $0) } }.flatMap { $0.isPlausible ? $0 : nil }
                let bandwidth = node["bandwidth"].flatMap(Int64.init).map { max(0, $0) } ?? 0
                let id = node["id"] ?? "\(representations.count)"
                let repBase = try DASHLink.base(of: node, over: setBase)
                representations.append(Representation(
                    id: id, content: content,
                    variant: Variant(uri: repBase, bandwidth: bandwidth, resolution: resolution, codecs: node["codecs"] ?? set["codecs"]),
                    language: set["lang"] ?? node["lang"], base: repBase,
                    addressing: DASHAddressing(representation: node, set: set, period: period), periodSeconds: seconds,
                    protection: protection(of: node) ?? protection(of: set)))
            }
        }
        return DASHPeriod(index: index, representations: representations)
    }

    /// Video or audio by the set's `contentType`, else a `mimeType`, else the codecs; WebVTT text by its `mimeType`;
    /// nil for other text (TTML, WebVTT in MP4) and the rest.
    private static func content(of representation: XMLNode, in set: XMLNode) -> Content? {
        if (representation["mimeType"] ?? set["mimeType"])?.lowercased() == "text/vtt" { return .text }
        let hints = [set["contentType"], representation["mimeType"], set["mimeType"], representation["codecs"], set["codecs"]]
        for hint in hints.compactMap({ $0?.lowercased() }) {
            if hint.hasPrefix("video") || ["avc", "hvc", "hev", "vp0", "vp9", "av01"].contains(where: hint.hasPrefix) { return .video }
            if hint.hasPrefix("audio") || ["mp4a", "opus", "ac-3", "ec-3", "flac"].contains(where: hint.hasPrefix) { return .audio }
            if hint.hasPrefix("text") || hint.hasPrefix("image") || hint.hasPrefix("application") { return nil }
        }
        return nil
    }

    /// The DRM scheme a `ContentProtection` of `node` names.
    private static func protection(of node: XMLNode) -> String? {
        guard let element = node.first("ContentProtection") else { return nil }
        let scheme = (element["schemeIdUri"] ?? "").lowercased()
        let names = [
            "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed": "Widevine", "urn:uuid:9a04f079-9840-4286-ab92-e65be0885f95": "PlayReady",
            "urn:uuid:94ce86fb-07ff-4f43-adb8-93d2fa968ca2": "FairPlay", "urn:uuid:e2719d58-a985-b3c9-781a-b030af78d30e": "ClearKey",
            "urn:uuid:1077efec-c0b2-4d02-ace3-3c1e52e2fb4b": "ClearKey",
        ]
        if let name = names[scheme] { return name }
        if scheme == "urn:mpeg:dash:mp4protection:2011" { return "common encryption (\(element["value"] ?? "cenc"))" }
        return scheme.isEmpty ? "an unnamed scheme" : scheme
    }
}
