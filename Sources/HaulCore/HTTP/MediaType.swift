/// A `Content-Type` header's media type without its parameters, lowercased: `Application/DASH+XML; charset=x` is
/// `application/dash+xml`. Every check of an answer's type reads it so (each answer passes several of them).
public enum MediaType {
    public static func essence(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        return contentType.prefix { $0 != ";" }.trimmingHTTPWhitespace().lowercased()
    }
}
