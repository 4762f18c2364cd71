/// A bandwidth cap in bytes per second; always positive. "No limit" is the absence of one (`RateLimit?` nil),
/// never a zero, so no code has to turn a 0 back into "none".
///
/// Coded as its bare number, so JSON that carried a plain byte rate keeps its shape.
public struct RateLimit: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let bytesPerSecond: Int64

    /// The cap of `bytesPerSecond`; nil for 0 or less (no limit).
    public init?(bytesPerSecond: Int64) {
        guard bytesPerSecond > 0 else { return nil }
        self.bytesPerSecond = bytesPerSecond
    }

    /// Parses a rate as the command line and RPC clients write it: bytes per second, with an optional K, M or G
    /// suffix (binary units, fractions allowed: `1.5G`); `0` means no limit and gives nil.
    ///
    /// `option` names where the text came from (`--limit-rate`), for the error's message.
    public static func parse(_ text: String, option: String? = nil) throws(InvalidRate) -> RateLimit? {
        guard let bytes = ByteSize.parse(text) else { throw InvalidRate(text: text, option: option) }
        return RateLimit(bytesPerSecond: bytes)
    }

    /// `2.0 MiB/s`.
    public var description: String { ByteCountFormat.rate(Double(bytesPerSecond)) }

    public static func < (lhs: RateLimit, rhs: RateLimit) -> Bool { lhs.bytesPerSecond < rhs.bytesPerSecond }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let bytes = try container.decode(Int64.self)
        guard let limit = RateLimit(bytesPerSecond: bytes) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a rate limit must be above 0, got \(bytes)")
        }
        self = limit
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytesPerSecond)
    }
}

extension Optional where Wrapped == RateLimit {
    /// `2.0 MiB/s`, or `no limit`.
    public var rateText: String { self?.description ?? "no limit" }
}
