import Foundation

/// Parses sizes from the command line (and, through `RateLimit.parse`, rates): bytes with an optional K/M/G
/// suffix (binary units); 0 allowed.
public enum ByteSize {
    public static func parse(_ text: String) -> Int64? {
        var number = text.trimmingCharacters(in: .whitespaces)
        var multiplier: Double = 1
        if let last = number.last?.uppercased(), let scale = ["K": 1024.0, "M": 1024.0 * 1024, "G": 1024.0 * 1024 * 1024][last] {
            multiplier = scale
            number.removeLast()
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        let bytes = value * multiplier
        guard bytes < 1e15 else { return nil }
        return Int64(bytes)
    }
}
