/// One format of a video as `yt-dlp -J` lists it: where its bytes are and how they are fetched. A value; numbers
/// outside what a video can have (negative, huge, not finite) read as unknown.
public struct PageFormat: Sendable, Equatable, Decodable {
    public var formatID: String?
    /// The media itself (for `m3u8_native`, a media playlist; for `http_dash_segments`, the manifest).
    public var url: String?
    /// The master playlist or the `.mpd` the format came from.
    public var manifestURL: String?
    /// `http`, `https`, `m3u8_native`, `m3u8`, `http_dash_segments`…
    public var transport: String?
    public var ext: String?
    /// `none` for a format without video (or audio); nil when yt-dlp does not know.
    public var vcodec: String?
    public var acodec: String?
    public var height: Int?
    /// Average bit rate in kbit/s.
    public var kbps: Double?
    /// Headers its requests must carry (`Referer`, `User-Agent`…).
    public var httpHeaders: [String: String]
    /// Cookies its requests must carry, as yt-dlp writes them (`name=value; Domain=…; Path=/`).
    public var cookies: String?

    public init(formatID: String? = nil, url: String? = nil, manifestURL: String? = nil, transport: String? = nil,
                ext: String? = nil, vcodec: String? = nil, acodec: String? = nil, height: Int? = nil, kbps: Double? = nil,
                httpHeaders: [String: String] = [:], cookies: String? = nil) {
        self.formatID = formatID
        self.url = url
        self.manifestURL = manifestURL
        self.transport = transport
        self.ext = ext
        self.vcodec = vcodec
        self.acodec = acodec
        self.height = height
        self.kbps = kbps
        self.httpHeaders = httpHeaders
        self.cookies = cookies
    }

    enum CodingKeys: String, CodingKey {
        case formatID = "format_id"
        case url
        case manifestURL = "manifest_url"
        case transport = "protocol"
        case ext, vcodec, acodec, height, tbr
        case httpHeaders = "http_headers"
        case cookies
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatID = container.lenient(String.self, .formatID)
        url = container.lenient(String.self, .url)
        manifestURL = container.lenient(String.self, .manifestURL)
        transport = container.lenient(String.self, .transport)
        ext = container.lenient(String.self, .ext)
        vcodec = container.lenient(String.self, .vcodec)
        acodec = container.lenient(String.self, .acodec)
        height = container.lenient(Double.self, .height).flatMap { (1...100_000).contains($0) ? Int($0) : nil }
        kbps = container.lenient(Double.self, .tbr).flatMap { $0 > 0 && $0 < 1e9 ? $0 : nil }
        httpHeaders = container.lenient([String: Lenient<String>].self, .httpHeaders)?.compactMapValues(\.value) ?? [:]
        cookies = container.lenient(String.self, .cookies)
    }

    /// Whether it has video (or may have: yt-dlp does not always know).
    var hasVideo: Bool { vcodec != "none" }
    /// Whether it has audio (or may have).
    var hasAudio: Bool { acodec != "none" }
}
