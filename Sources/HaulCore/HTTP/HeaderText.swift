/// Turns the raw bytes of a header value into text the way browsers do.
///
/// HTTP header values are bytes. Modern servers send UTF-8; older ones send ISO-8859-1, the charset
/// HTTP/1.1 originally named (RFC 2616 §2.2), for example `filename="caf\xE9.txt"`. Decoding such a
/// byte as UTF-8 would replace it with U+FFFD, which `SafeFileName` then drops.
public enum HeaderText {
    /// The bytes as UTF-8 when they are valid UTF-8, else as ISO-8859-1 (every byte is one scalar).
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self) ?? latin1(bytes)
    }

    /// The bytes as ISO-8859-1: each byte is the scalar of the same value.
    public static func latin1(_ bytes: some Collection<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
