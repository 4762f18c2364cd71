import Foundation

/// A `[[rule]]` of the settings file: what tasks to hosts matching `host` get when they are added (DESIGN §10).
/// Fields left nil leave the task's own settings alone.
public struct HostRule: Sendable, Equatable {
    public var host: HostGlob
    /// Where the rule is written (`FILE:LINE`), shown with the tasks it applied to.
    public var origin: String
    /// Connections per download (`split`).
    public var split: Int?
    /// A cap for each such download, bytes per second (`limit-rate`).
    public var rateLimit: Int64?
    /// The cap as the file wrote it (`"500K"`), for showing it back.
    public var rateLimitText: String?
    /// The proxy (`all-proxy`; "" for none).
    public var allProxy: String?
    /// Extra request headers (`header`), over the file's own; the command line's win.
    public var headers: [String] = []
    public var userAgent: String?
    /// A Netscape cookies file (`load-cookies`).
    public var loadCookies: String?
    /// The download directory (`dir`).
    public var directory: String?

    public init(host: String, origin: String) {
        self.host = HostGlob(host)
        self.origin = origin
    }

    /// What the details pane and `haul list --json` show: `host = "*.example.org" (FILE:LINE)`.
    public var label: String { "host = \(host.pattern.jsonStringLiteral) (\(origin))" }
}

/// A `[[category]]` of the settings file: the download directory of files with these extensions or content types.
public struct DownloadCategory: Sendable, Equatable {
    /// Lower-case file extensions without the dot (`mp4`).
    public var extensions: [String]
    /// Lower-case media types (`video/mp4`), or a type with any subtype (`video/*`).
    public var contentTypes: [String]
    public var directory: String
    /// Where the category is written (`FILE:LINE`).
    public var origin: String

    public init(extensions: [String] = [], contentTypes: [String] = [], directory: String, origin: String) {
        self.extensions = extensions.map { $0.lowercased().drop { $0 == "." } }.map(String.init)
        self.contentTypes = contentTypes.map { $0.lowercased() }
        self.directory = directory
        self.origin = origin
    }

    /// Whether a file named `name` belongs here by its extension.
    public func matches(fileName name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// Whether a response with this `Content-Type` (parameters allowed) belongs here.
    public func matches(contentType: String) -> Bool {
        contentTypes.contains { Self.contentType(contentType, matches: $0) }
    }

    /// Whether a `Content-Type` header value (parameters allowed) is `pattern` (`video/mp4`, or `video/*`).
    public static func contentType(_ value: String, matches pattern: String) -> Bool {
        let type = MediaType.essence(of: value) ?? ""
        guard !type.isEmpty else { return false }
        return pattern.hasSuffix("/*") ? type.hasPrefix(pattern.dropLast()) : type == pattern
    }

    /// `category mp4,mkv (FILE:LINE)`.
    public var label: String {
        "category " + (extensions + contentTypes).joined(separator: ",") + " (\(origin))"
    }
}
