import Foundation

/// Reads the `Retry-After` response header (RFC 9110 §10.2.3), sent with 429 and 503.
public enum RetryAfter {
    /// Seconds to wait according to a `Retry-After` value, or nil when it cannot be read.
    ///
    /// The value is either delta-seconds (`120`) or an HTTP date, which is taken relative to `now`.
    /// A date in the past, or a negative number, gives 0. Fractions (`1.5`) are accepted; signs other
    /// than a leading `-`, exponents, `inf` and `nan` are not. Callers cap the result (see `RetryPolicy`).
    public static func seconds(from value: String, now: Date) -> Double? {
        let text = Substring(value).trimmingHTTPWhitespace()
        guard !text.isEmpty else { return nil }
        if let number = delta(text) { return max(0, number) }
        guard let date = HTTPDate.parse(String(text)) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// A decimal number made of digits, at most one `.` and an optional leading `-`.
    static func delta(_ text: Substring) -> Double? {
        let unsigned = text.first == "-" ? text.dropFirst() : text
        guard !unsigned.isEmpty,
              unsigned.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E }),
              unsigned.utf8.contains(where: { $0 != 0x2E }),
              unsigned.utf8.filter({ $0 == 0x2E }).count <= 1,
              let number = Double(text), number.isFinite
        else { return nil }
        return number
    }
}
