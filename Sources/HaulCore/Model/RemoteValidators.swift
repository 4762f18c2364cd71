/// What the server said about the file when we first saw it; the source of `If-Range`.
public struct RemoteValidators: Sendable, Equatable, Codable {
    /// The `ETag` header as sent, quotes included (weak tags start with `W/`).
    public var etag: String?
    /// The `Last-Modified` header as sent.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The value for `If-Range`: a strong ETag, else Last-Modified; weak tags never qualify.
    public var ifRangeValue: String? {
        if let etag, !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// Which of these validators a later answer's contradicts, if any: "the ETag" or "Last-Modified".
    /// A validator the later answer lacks contradicts nothing.
    public func contradicted(by later: RemoteValidators) -> String? {
        if let etag, let now = later.etag, now != etag { return "the ETag" }
        if let lastModified, let now = later.lastModified, now != lastModified { return "Last-Modified" }
        return nil
    }

    /// Whether `later` carries the same strong ETag, which promises the same bytes (and so the same length).
    public func sharesStrongETag(with later: RemoteValidators) -> Bool {
        guard let etag, !etag.hasPrefix("W/") else { return false }
        return later.etag == etag
    }
}
