/// The one rule for extra request headers (`-H`, `header=`, RPC `header`).
///
/// A header is `Name: value` on one line: no CR, LF or other control character (a tab in the value is
/// fine), a name without spaces, and not one of the headers haul sets itself to resume and to frame
/// the body.
public enum HeaderRule {
    /// Lower-cased names a user may not set: haul sends them itself, and a second copy breaks resuming.
    public static let reservedNames: Set<String> = ["range", "if-range", "content-length", "transfer-encoding"]

    /// Throws the first rule `header` breaks.
    public static func check(_ header: String) throws(IntakeError) {
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
