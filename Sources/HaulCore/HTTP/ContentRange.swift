/// A parsed `Content-Range` response header (RFC 9110 §14.4), byte ranges only.
///
/// `bytes 0-99/200` has `first` 0, `last` 99 and `total` 200; `bytes */200` (the answer to an
/// unsatisfiable range) has no `first`/`last`; `bytes 5-9/*` has no `total`.
public struct ContentRange: Sendable, Equatable {
    /// First byte position of the range, inclusive; nil for `bytes */TOTAL`.
    public var first: Int64?
    /// Last byte position of the range, inclusive; nil for `bytes */TOTAL`.
    public var last: Int64?
    /// Length of the whole file; nil for `/*` (unknown).
    public var total: Int64?

    public init(first: Int64?, last: Int64?, total: Int64?) {
        self.first = first
        self.last = last
        self.total = total
    }

    /// Parses a header value; nil when it is malformed, not in bytes, has `last < first`, has `last >= total`,
    /// or is `bytes */*`.
    ///
    /// The unit is matched case-insensitively and spaces around the parts are tolerated; numbers must be
    /// plain decimal digits of at most `StatedSize.limit`, so `length` and `last + 1` never overflow.
    public init?(parsing value: String) {
        let trimmed = Substring(value).trimmingHTTPWhitespace()
        let unit = trimmed.prefix(while: { !$0.isHTTPWhitespace })
        guard unit.lowercased() == "bytes" else { return nil }
        let rest = trimmed.dropFirst(unit.count)

        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let rangePart = rest[..<slash].trimmingHTTPWhitespace()
        let totalPart = rest[rest.index(after: slash)...].trimmingHTTPWhitespace()

        var total: Int64?
        if totalPart != "*" {
            guard let parsed = Self.number(totalPart) else { return nil }
            total = parsed
        }

        if rangePart == "*" {
            guard let total else { return nil }          // "bytes */*" says nothing
            self.init(first: nil, last: nil, total: total)
            return
        }
        guard let dash = rangePart.firstIndex(of: "-"),
              let first = Self.number(rangePart[..<dash]),
              let last = Self.number(rangePart[rangePart.index(after: dash)...]),
              last >= first
        else { return nil }
        if let total, last >= total { return nil }
        self.init(first: first, last: last, total: total)
    }

    /// Number of bytes in the range (`last - first + 1`); nil for `bytes */TOTAL`.
    public var length: Int64? {
        guard let first, let last else { return nil }
        return last - first + 1
    }

    /// Whether this is the `bytes */TOTAL` form sent with 416 Range Not Satisfiable.
    public var isUnsatisfiedRange: Bool { first == nil }

    /// A non-negative decimal of ASCII digits only (no sign, no spaces) up to `StatedSize.limit`, or nil.
    static func number(_ text: Substring) -> Int64? { StatedSize.bytes(text) }
}
