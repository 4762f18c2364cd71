/// Which format of a page's video haul fetches (DESIGN §11), as a pure function of yt-dlp's answer and
/// `--stream-quality`. haul's own stream code does the rest:
///
/// - an HLS format (`m3u8_native`, `m3u8`): its master playlist (`manifest_url`), from which haul picks the variant
///   and the DEFAULT audio by `--stream-quality`, video and audio in one task;
/// - a DASH format (`http_dash_segments`): its `.mpd`;
/// - otherwise the best progressive file (`http`, `https`) by `--stream-quality`, preferring one with both video and
///   audio.
///
/// Only http(s) links are taken; anything else yt-dlp lists (`file://`, rtmp, a missing URL) is passed over.
public enum PageChoice {
    /// Why a page gave no video.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// No format with an http(s) link haul can fetch.
        case noUsableFormat

        public var description: String {
            switch self {
            case .noUsableFormat: "yt-dlp found no format haul can fetch (only http and https links are taken)"
            }
        }
    }

    /// The videos of `info` to queue, each as `choice` picks it; a playlist's entries without a usable format are left out.
    public static func select(_ info: PageInfo, choice: VariantChoice) -> Result<PageSelection, Failure> {
        guard info.isPlaylist else {
            guard let one = media(of: info, choice: choice, fallbackName: "video") else { return .failure(.noUsableFormat) }
            return .success(PageSelection(media: [one], group: nil))
        }
        let group = clean(info.title) ?? clean(info.id) ?? "playlist"
        let chosen = info.entries.enumerated().compactMap { index, entry in
            media(of: entry, choice: choice, fallbackName: "\(group) \(index + 1)")
        }
        guard !chosen.isEmpty else { return .failure(.noUsableFormat) }
        return .success(PageSelection(media: chosen, group: chosen.count > 1 ? group : nil))
    }

    /// The link of the format `formatID` (its manifest for a stream), when the page still lists it: a fresh link for
    /// one that expired.
    public static func refreshed(_ info: PageInfo, formatID: String) -> String? {
        let videos = info.isPlaylist ? info.entries : [info]
        for video in videos {
            for format in formats(of: video) where format.formatID == formatID {
                if let link = link(of: format) { return link.url }
            }
        }
        return nil
    }

    /// One video's media, or nil when none of its formats has a link haul fetches.
    static func media(of video: PageInfo, choice: VariantChoice, fallbackName: String) -> PageMedia? {
        let usable = formats(of: video).compactMap { format in link(of: format).map { (format, $0) } }
        let stem = clean(video.title) ?? clean(video.id) ?? fallbackName
        if let (format, link) = usable.first(where: { $0.1.isManifest }) {
            return PageMedia(url: link.url, formatID: format.formatID, headers: PageHeaders.lines(of: format), stem: stem, fileName: nil)
        }
        let files = usable.map(\.0)
        let both = files.filter { $0.hasVideo && $0.hasAudio }
        let video = files.filter(\.hasVideo)
        let pool = !both.isEmpty ? both : !video.isEmpty ? video : files
        guard let format = pick(from: pool, choice: choice), let link = link(of: format) else { return nil }
        let name = SafeFileName.sanitize(stem + (extensionText(format.ext).map { "." + $0 } ?? "")) ?? stem
        return PageMedia(url: link.url, formatID: format.formatID, headers: PageHeaders.lines(of: format), stem: stem, fileName: name)
    }

    /// A video's formats; a video without a list is one format itself.
    static func formats(of video: PageInfo) -> [PageFormat] {
        video.formats.isEmpty ? (video.own.url == nil ? [] : [video.own]) : video.formats
    }

    /// The link haul fetches for a format and whether it is a stream's manifest; nil when there is no http(s) one.
    static func link(of format: PageFormat) -> (url: String, isManifest: Bool)? {
        let transport = format.transport ?? "https"
        if transport.hasPrefix("m3u8") || transport == "http_dash_segments" {
            guard let manifest = format.manifestURL.flatMap(httpLink) else { return nil }
            return (manifest, true)
        }
        guard transport == "http" || transport == "https", let url = format.url.flatMap(httpLink) else { return nil }
        return (url, false)
    }

    /// The format `choice` picks, ranked as variants are (bit rate, then height); yt-dlp lists worst first.
    static func pick(from formats: [PageFormat], choice: VariantChoice) -> PageFormat? {
        let variants = formats.enumerated().map { index, format in
            Variant(
                uri: String(index), bandwidth: Int64((format.kbps ?? 0) * 1000),
                resolution: format.height.map { Resolution(width: 0, height: $0) })
        }
        return choice.pick(from: variants).flatMap { Int($0.uri) }.map { formats[$0] }
    }

    /// `text` as an http(s) link (checked as a link a user gives), else nil.
    static func httpLink(_ text: String) -> String? {
        guard let url = try? URLValidation.validate(text) else { return nil }
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") ? url : nil
    }

    /// A title as a file name's stem: one line, no path separators, safe (`SafeFileName`); nil when nothing is left.
    static func clean(_ title: String?) -> String? {
        guard let title else { return nil }
        let flat = String(title.map { $0 == "/" || $0 == "\\" ? "_" : $0 })
        return SafeFileName.sanitize(flat)
    }

    /// A plausible extension (`mp4`, `webm`): a few lowercase letters or digits; nil for `unknown_video` and worse.
    static func extensionText(_ ext: String?) -> String? {
        guard let ext, (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else { return nil }
        return ext
    }
}
