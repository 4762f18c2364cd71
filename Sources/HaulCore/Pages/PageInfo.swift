/// What `yt-dlp -J` says a web page holds (DESIGN §11, TECH_NOTES §I.4): one video with its formats, or a
/// playlist of them (`_type: playlist`, `entries`). A value decoded from its JSON; every field is optional and a
/// field of the wrong type reads as absent, so a hostile or odd answer never fails the whole decode.
public struct PageInfo: Sendable, Equatable, Decodable {
    /// `video`, `playlist`, `url`… (nil: a video).
    public var type: String?
    public var id: String?
    public var title: String?
    /// The formats of a video, worst first (yt-dlp's order).
    public var formats: [PageFormat]
    /// The videos of a playlist page.
    public var entries: [PageInfo]
    /// A video without `formats` is one format itself (its `url`, `protocol`, headers…).
    public var own: PageFormat

    public init(type: String? = nil, id: String? = nil, title: String? = nil, formats: [PageFormat] = [],
                entries: [PageInfo] = [], own: PageFormat = PageFormat()) {
        self.type = type
        self.id = id
        self.title = title
        self.formats = formats
        self.entries = entries
        self.own = own
    }

    /// The most entries a playlist page gives tasks for: a page of a thousand videos is a mistake or an attack.
    public static let maxEntries = 200
    /// The most formats read of one video.
    static let maxFormats = 500

    enum CodingKeys: String, CodingKey {
        case type = "_type"
        case id, title, formats, entries
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = container.lenient(String.self, .type)
        id = container.lenient(String.self, .id)
        title = container.lenient(String.self, .title)
        formats = Array((container.lenient([Lenient<PageFormat>].self, .formats) ?? []).compactMap(\.value).prefix(Self.maxFormats))
        entries = Array((container.lenient([Lenient<PageInfo>].self, .entries) ?? []).compactMap(\.value).prefix(Self.maxEntries))
        own = (try? PageFormat(from: decoder)) ?? PageFormat()
    }

    /// Whether the page is a playlist of videos rather than one.
    public var isPlaylist: Bool { type == "playlist" || type == "multi_video" || !entries.isEmpty }
}

/// An element of a JSON array that reads as nil when it does not decode (a `null`, a number where an object goes).
struct Lenient<Value: Decodable & Sendable>: Decodable, Sendable {
    var value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or nil when it is absent, null or of another type.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
