/// What the server said about the file when we first saw it; the source of `If-Range`.
public struct RemoteValidators: Sendable, Equatable, Codable {
    /// The `ETag` header as sent, quotes included (weak tags start with `W/`).
    public var etag: String?
    /// The `Last-Modified` header as sent.
    public var lastModified: String?
    /// The `Server` header of the answer they came with (`nginx/1.24.0`): server software words its ETags its own
    /// way, so an ETag is compared only with one from the same software or host (`etagsComparable`).
    public var server: String?
    /// The host of the link that answered (`URLValidation.host`, lower case, no port); nil for validators
    /// recorded before hosts were.
    public var host: String?

    public init(etag: String? = nil, lastModified: String? = nil, server: String? = nil, host: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.server = server
        self.host = host
    }

    /// The value for `If-Range`: a strong ETag, else Last-Modified; weak tags never qualify.
    public var ifRangeValue: String? {
        if let etag, !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        if let lastModified, !lastModified.isEmpty { return lastModified }
        return nil
    }

    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// Which of these validators a later answer's contradicts, if any: "the ETag" or "Last-Modified".
    /// A validator the later answer lacks contradicts nothing, nor does an ETag of other server software.
    public func contradicted(by later: RemoteValidators) -> String? {
        mismatch(with: later)?.validator.subject
    }

    /// Whether `later` carries the same strong ETag, which promises the same bytes (and so the same length).
    public func sharesStrongETag(with later: RemoteValidators) -> Bool {
        guard let etag, !etag.hasPrefix("W/") else { return false }
        return later.etag == etag
    }
}
