/// A single byte range from a `Range` header, as a server that supports ranges reads it.
///
/// Multiple ranges and malformed values parse to nil: like most servers, the fault server then
/// ignores the header and answers 200 with the whole body (RFC 9110 §14.2 allows that).
enum RangeRequest: Equatable {
    /// `bytes=N-`
    case from(Int64)
    /// `bytes=N-M` (M inclusive)
    case closed(Int64, Int64)
    /// `bytes=-N`: the last N bytes
    case suffix(Int64)

    /// What a range means for content of a given size.
    enum Resolution: Equatable {
        /// Serve these bytes with 206.
        case satisfiable(Range<Int64>)
        /// Answer 416 with `Content-Range: bytes */SIZE`.
        case unsatisfiable
    }

    /// Parses a `Range` header value; nil when it must be ignored.
    static func parse(_ value: String) -> RangeRequest? {
        let trimmed = value.trimmingSpaces()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = trimmed.dropFirst("bytes=".count).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingSpaces()
        let last = spec[spec.index(after: dash)...].trimmingSpaces()
        if first.isEmpty {
            guard let count = Int64(last), count >= 0 else { return nil }
            return .suffix(count)
        }
        guard let start = Int64(first), start >= 0 else { return nil }
        if last.isEmpty { return .from(start) }
        guard let end = Int64(last), end >= start else { return nil }
        return .closed(start, end)
    }

    /// The bytes this range selects from content of `size` bytes.
    func resolve(size: Int64) -> Resolution {
        switch self {
        case .from(let start):
            return start < size ? .satisfiable(start..<size) : .unsatisfiable
        case .closed(let start, let end):
            return start < size ? .satisfiable(start..<min(end + 1, size)) : .unsatisfiable
        case .suffix(let count):
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .satisfiable(max(0, size - count)..<size)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
