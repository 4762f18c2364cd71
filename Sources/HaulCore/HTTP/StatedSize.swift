/// A byte count a server states (`Content-Length`, the numbers of `Content-Range`): ASCII digits only, at
/// most `limit`.
///
/// No file is 4 EiB: a larger number is a lying or broken server. It is refused where it is read, so every
/// sum of offsets and totals after it stays far from `Int64.max`.
public enum StatedSize {
    /// 2^62 bytes (4 EiB).
    public static let limit: Int64 = 1 << 62

    public enum Reading: Sendable, Equatable {
        case bytes(Int64)
        /// Digits for a number above `limit` (or above `Int64.max`).
        case tooLarge
        /// Not a decimal number: empty, signed, spaced, or with other characters.
        case malformed
    }

    public static func read(_ text: Substring) -> Reading {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .malformed }
        guard let value = Int64(text), value <= limit else { return .tooLarge }
        return .bytes(value)
    }

    /// The byte count `text` states, nil when it is malformed or too large.
    public static func bytes(_ text: Substring) -> Int64? {
        if case let .bytes(value) = read(text) { return value }
        return nil
    }
}
