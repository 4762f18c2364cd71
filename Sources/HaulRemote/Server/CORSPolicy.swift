/// Which CORS headers a response carries: none at all unless the request's `Origin` is the one allowed origin.
///
/// aria2 adds `Access-Control-Allow-Origin` to every response once `--rpc-allow-origin-all` is set; haul is
/// stricter and names only the configured origin, and only to a request that comes from it. The preflight
/// answer (`OPTIONS`) carries the same method list, max age and echoed request headers as aria2's.
struct CORSPolicy: Sendable, Equatable {
    /// `--rpc-allow-origin ORIGIN`, e.g. `https://ariang.example`; nil sends no CORS header ever.
    let allowedOrigin: String?

    /// Whether `origin` (the request's `Origin` header) is the allowed one.
    func allows(origin: String?) -> Bool {
        guard let allowedOrigin, let origin else { return false }
        return origin == allowedOrigin
    }

    /// Headers for an ordinary response to a request from `origin`.
    func responseHeaders(origin: String?) -> [(String, String)] {
        guard allows(origin: origin), let origin else { return [] }
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin")]
    }

    /// Headers for the answer to an `OPTIONS` preflight request.
    ///
    /// - Parameters:
    ///   - requestMethod: `Access-Control-Request-Method`; without it the request is no preflight.
    ///   - requestHeaders: `Access-Control-Request-Headers`, echoed back as aria2 does.
    func preflightHeaders(origin: String?, requestMethod: String?, requestHeaders: String?) -> [(String, String)] {
        guard allows(origin: origin), let requestMethod, !requestMethod.isEmpty else { return [] }
        var headers = responseHeaders(origin: origin)
        headers.append(("Access-Control-Allow-Methods", "POST, GET, OPTIONS"))
        headers.append(("Access-Control-Max-Age", "1728000"))
        if let requestHeaders, !requestHeaders.isEmpty {
            headers.append(("Access-Control-Allow-Headers", requestHeaders))
        }
        return headers
    }
}
