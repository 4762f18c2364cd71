/// The one rule for extra request headers (`-H`, `header=`, RPC `header`).
///
/// A header is `Name: value` on one line: no NUL, CR, LF or other control character (a tab in the value is
/// fine), a name without spaces, and not one of the headers haul sets itself to resume and to frame
/// the body.
public enum HeaderRule {
    /// Lower-cased names a user may not set: haul sends them itself, and a second copy breaks resuming.
    public static let reservedNames: Set<String> = ["range", "if-range", "content-length", "transfer-encoding"]

    /// The longest header, in bytes (servers refuse longer ones: nginx 8 KiB, Apache 8 KiB).
    public static let maxHeaderBytes = 8 << 10
    /// The most header bytes one task may carry.
    public static let maxTotalBytes = 64 << 10

    /// Throws the first rule a task's `headers` break: each header's own, then their total size.
    /// The name of header line `line`, lower-cased.
    public static func name(_ line: String) -> String { String(line.prefix { $0 != ":" }.trimmingHTTPWhitespace()).lowercased() }

    public static func check(all headers: [String]) throws(IntakeError) {
        for header in headers { try check(header) }
        let total = headers.reduce(0) { $0 + $1.utf8.count }
        if total > maxTotalBytes { throw .headersTooLarge(bytes: total, limit: maxTotalBytes) }
    }

    /// Throws the first rule `header` breaks.
    public static func check(_ header: String) throws(IntakeError) {
        let bytes = header.utf8.count
        if bytes > maxHeaderBytes {
            let name = String(header.prefix { $0 != ":" }.prefix(64))
            throw .headerTooLarge(name: name, bytes: bytes, limit: maxHeaderBytes)
        }
        // Named apart from other control characters: C code that takes the header ends it at the NUL, silently.
        guard !header.unicodeScalars.contains("\0") else { throw .headerNUL(header) }
        guard !header.unicodeScalars.contains(where: { $0.isControlCharacter && $0 != "\t" }) else {
            throw .headerControlCharacter(header)
        }
        guard let colon = header.firstIndex(of: ":"),
              !header[..<colon].trimmingHTTPWhitespace().isEmpty
        else { throw .malformedHeader(header) }
        let name = header[..<colon]
        guard !name.contains(where: \.isHTTPWhitespace) else { throw .headerNameWithSpace(header) }
        if reservedNames.contains(name.lowercased()) { throw .reservedHeader(name.lowercased()) }
    }
}
