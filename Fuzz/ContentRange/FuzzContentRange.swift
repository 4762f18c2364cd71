import FuzzSupport
import HaulCore

/// A server's `Content-Range`: a parsed range is always a range of the file it names, no number of it is past
/// `StatedSize.limit`, and its length is computed without a trap.
func fuzzContentRange(_ bytes: [UInt8]) {
    guard let range = ContentRange(parsing: String(decoding: bytes, as: UTF8.self)) else { return }
    FuzzInput.require([range.first, range.last, range.total].allSatisfy { ($0 ?? 0) <= StatedSize.limit }, "past the limit: \(range)")
    if let length = range.length { FuzzInput.require(length > 0, "empty range \(range)") }
    if let first = range.first, let last = range.last {
        FuzzInput.require(first >= 0 && first <= last, "bad range \(range)")
        if let total = range.total { FuzzInput.require(last < total, "range past the total: \(range)") }
    } else {
        FuzzInput.require(range.first == nil && range.last == nil && range.total != nil, "half a range: \(range)")
    }
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzContentRange) }
}
