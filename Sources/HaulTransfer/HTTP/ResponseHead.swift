/// Status and headers of one HTTP response, collected line by line by the header callback.
///
/// libcurl hands us the headers of every response (redirect hops and 1xx included), so a status
/// line starts a fresh head.
struct ResponseHead {
    private(set) var status = 0
    private(set) var reason: String?
    private(set) var fields: [String: String] = [:]
    private(set) var isComplete = false

    /// Feeds one header line (with or without CRLF). Returns true when the line ended the head.
    mutating func feed(_ line: String) -> Bool {
        let text = line.trimmingTrailingNewline()
        if text.hasPrefix("HTTP/") {
            self = ResponseHead()
            let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            if parts.count >= 2 { status = Int(parts[1]) ?? 0 }
            if parts.count == 3 { reason = String(parts[2]) }
            return false
        }
        if text.isEmpty {
            isComplete = status != 0
            return isComplete
        }
        guard let colon = text.firstIndex(of: ":") else { return false }
        let name = text[..<colon].lowercased()
        let value = text[text.index(after: colon)...].trimmingCharacters(in: " \t")
        // Repeated headers of the kinds we read are rare; the last one wins.
        fields[name] = value
        return false
    }

    subscript(name: String) -> String? { fields[name] }

    var isInformational: Bool { (100..<200).contains(status) }

    /// A redirect libcurl will follow (it has a Location); its body is never ours.
    var isFollowedRedirect: Bool { (300..<400).contains(status) && status != 304 && fields["location"] != nil }

    var contentLength: Int64? { fields["content-length"].flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil } }

    var isChunked: Bool { fields["transfer-encoding"]?.lowercased().contains("chunked") ?? false }
}

extension String {
    func trimmingTrailingNewline() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r" || last == "\r\n" { text = text.dropLast() }
        return String(text)
    }

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
