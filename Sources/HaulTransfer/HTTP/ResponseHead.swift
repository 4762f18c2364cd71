import Foundation
import HaulCore

/// Status and headers of one HTTP response, collected line by line by the header callback.
///
/// libcurl hands us the headers of every response (1xx included), so a status line starts a fresh head.
struct ResponseHead {
    private(set) var status = 0
    private(set) var reason: String?
    private(set) var fields: [String: String] = [:]
    private(set) var isComplete = false

    /// The headers haul reads; others are skipped without building strings (this runs for every line).
    static let wanted: [String] = [
        "content-length", "content-range", "etag", "last-modified", "content-disposition", "location",
        "retry-after", "transfer-encoding", "accept-ranges", "content-encoding", "content-type", "server",
    ]

    /// Feeds one header line (with or without CRLF). Returns true when the line ended the head.
    mutating func feed(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { feed(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Feeds one header line as libcurl hands it over.
    mutating func feed(bytes: UnsafeRawBufferPointer) -> Bool {
        var end = bytes.count
        while end > 0, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.starts(with: "HTTP/".utf8) {
            self = ResponseHead()
            let text = String(decoding: line, as: UTF8.self)
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            if parts.count >= 2 { status = Int(parts[1]) ?? 0 }
            // The reason phrase is server text that ends up on the user's terminal: no control characters.
            if parts.count == 3 { reason = parts[2].strippingControlCharacters }
            return false
        }
        if line.isEmpty {
            isComplete = status != 0
            return isComplete
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let name = UnsafeRawBufferPointer(rebasing: line[0..<colon])
        guard let key = Self.wanted.first(where: { Self.equalsIgnoringCase(name, $0) }) else { return false }
        let value = HeaderText.decode(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        // Repeated headers of the kinds we read are rare; the last one wins.
        fields[key] = value.trimmingCharacters(in: " \t")
        return false
    }

    /// ASCII case-insensitive comparison of a header name with a lower-case name.
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: String) -> Bool {
        guard bytes.count == lowercase.utf8.count else { return false }
        for (byte, expected) in zip(bytes, lowercase.utf8) {
            let lowered = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            if lowered != expected { return false }
        }
        return true
    }

    subscript(name: String) -> String? { fields[name] }

    var isInformational: Bool { (100..<200).contains(status) }

    /// A redirect the engine follows (it has a Location, `RedirectHop`); its body is never ours.
    var isFollowedRedirect: Bool { (300..<400).contains(status) && status != 304 && fields["location"] != nil }

    var contentLength: Int64? { fields["content-length"].flatMap { StatedSize.bytes(Substring($0)) } }

    /// The refusal of a head whose `Content-Length` or `Content-Range` states a number past `StatedSize.limit`
    /// (those headers then read as absent or unusable); nil when both are sane or missing, and for an error
    /// status, whose length is its error page's.
    func implausibleSize(host: String) -> DownloadError? {
        guard (200..<300).contains(status) || status == 416 else { return nil }
        if let text = fields["content-length"], StatedSize.read(Substring(text)) == .tooLarge {
            return .implausibleSize(header: "Content-Length", value: text, host: host)
        }
        if let text = fields["content-range"],
           text.split(whereSeparator: { !("0"..."9").contains($0) }).contains(where: { StatedSize.read($0) == .tooLarge }) {
            return .implausibleSize(header: "Content-Range", value: text, host: host)
        }
        return nil
    }

    /// The file's validators as this answer states them, with the server software that words its ETag.
    var validators: RemoteValidators {
        RemoteValidators(etag: fields["etag"], lastModified: fields["last-modified"], server: fields["server"])
    }

    /// Its validators as the answer of a link on `host`: what tells whether another link's ETag can be compared.
    func validators(from host: String) -> RemoteValidators {
        var validators = validators
        validators.host = host
        return validators
    }

    /// The failure an error status stands for, with the wait its `Retry-After` asks for.
    func statusError(host: String, now: Date = .now) -> DownloadError {
        let retryAfter = fields["retry-after"].flatMap { RetryAfter.seconds(from: $0, now: now) }
        return .httpStatus(code: status, reason: reason, host: host, retryAfter: retryAfter)
    }

    /// The `Content-Range` of a 206, when it names a first and last byte.
    var contentRange: ContentRange? {
        guard let text = fields["content-range"], let range = ContentRange(parsing: text), range.first != nil,
              range.last != nil else { return nil }
        return range
    }

    /// The whole file's length as a `Content-Range` states it (`bytes */900` on a 416 too), if it does.
    var statedTotal: Int64? { fields["content-range"].flatMap { ContentRange(parsing: $0) }?.total }

    /// Why a 206 is unusable when it has no readable `Content-Range`.
    var unusableContentRange: DownloadError {
        .badContentRange("206 without a usable Content-Range (\(fields["content-range"] ?? "none"))")
    }

    var isChunked: Bool { fields["transfer-encoding"]?.lowercased().contains("chunked") ?? false }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        Substring(self).trimmingCharacters(in: set)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
