/// Which variant of a master playlist to download (`--stream-quality`): the best (highest `BANDWIDTH`, ties by
/// resolution), the worst, a height such as `720`, or a bandwidth in bits per second.
public enum VariantChoice: Sendable, Equatable, CustomStringConvertible {
    case best
    case worst
    case height(Int)
    case bandwidth(Int64)

    /// Numbers up to 4320 (8K) are heights (`720` or `720p`); larger ones are bandwidths.
    public init?(parsing text: String) {
        let word = Substring(text).trimmingHTTPWhitespace().lowercased()
        switch word {
        case "best": self = .best
        case "worst": self = .worst
        default:
            let digits = word.hasSuffix("p") ? String(word.dropLast()) : word
            guard let number = Int64(digits), number > 0 else { return nil }
            if word.hasSuffix("p") || number <= 4320 {
                guard number <= 4320 else { return nil }
                self = .height(Int(number))
            } else {
                self = .bandwidth(number)
            }
        }
    }

    public var description: String {
        switch self {
        case .best: "best"
        case .worst: "worst"
        case let .height(height): "\(height)p"
        case let .bandwidth(bits): "\(bits) bit/s"
        }
    }

    /// The variant this choice picks: for a height, the tallest at or below it, else the shortest above; for a
    /// bandwidth, the highest at or below it, else the lowest. Ties go to the higher bandwidth, then resolution.
    public func pick(from variants: [Variant]) -> Variant? {
        let ranked = variants.sorted { a, b in
            a.bandwidth != b.bandwidth ? a.bandwidth < b.bandwidth : (a.resolution ?? Resolution(width: 0, height: 0)) < (b.resolution ?? Resolution(width: 0, height: 0))
        }
        switch self {
        case .best:
            return ranked.last
        case .worst:
            return ranked.first
        case let .height(height):
            let sized = ranked.filter { $0.resolution != nil }
            guard !sized.isEmpty else { return ranked.last }
            let below = sized.filter { $0.resolution!.height <= height }
            if let tallest = below.map({ $0.resolution!.height }).max() {
                return below.last { $0.resolution!.height == tallest }
            }
            let shortest = sized.map { $0.resolution!.height }.min()
            return sized.last { $0.resolution!.height == shortest }
        case let .bandwidth(bits):
            return ranked.last { $0.bandwidth <= bits } ?? ranked.first
        }
    }
}
