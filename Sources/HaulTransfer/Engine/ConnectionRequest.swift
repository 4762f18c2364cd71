import HaulCore

/// What a connection of a download asks the server: a pure function of the task and the connection's part.
enum ConnectionRequest {
    /// - Parameters:
    ///   - role: the task's first request, or a bounded range of a segmented download.
    ///   - url: where it asks: its link, a redirect's next hop (the engine follows them, each hop with the proxy and
    ///     login its own URL calls for), or for an extra connection the first one's redirect target directly.
    ///   - requested: the bytes it wants; a first request wants everything from its start.
    ///   - validators: what an `If-Range` must repeat: the stored ones for a first request, the first
    ///     answer's for a range.
    ///   - fresh: asks for a new TCP connection (it replaces a slow one).
    ///   - netrc: the task's `.netrc`, read when the attempt started.
    static func make(
        role: Connection.Role, request: TransferRequest, url: String, requested: Range<Int64>,
        validators: RemoteValidators, fresh: Bool, netrc: NetrcFile? = nil
    ) -> CurlRequest {
        let options = request.options
        var curl = CurlRequest(url: url)
        curl.connectTimeout = options.connectTimeout
        curl.stallTimeout = options.stallTimeout
        // 256 KiB reads are cheapest; under a limit, small reads let the budget pace them evenly.
        curl.readSize = options.rateLimit == nil ? 256 << 10 : 16 << 10
        curl.caCertificate = options.caCertificate
        // Credentials stay with their origin.
        curl.headers = RedirectCredentials.headers(request.headers, original: request.url, target: url)
        // Proxies recorded with the task replace the environment of this process (a task from before they
        // were recorded keeps libcurl's reading of it).
        if let proxies = request.requestOptions.proxies {
            curl.proxy = proxies.proxy(for: url) ?? ""
            curl.noProxy = proxies.noProxy ?? ""
        }
        // Each URL asked (a redirect's hop too) gets the login its host has (`HopLogin`).
        curl.login = HopLogin.choose(for: url, links: request.links, netrc: netrc).login
        switch role {
        case .first:
            guard requested.lowerBound > 0 else { break }
            curl.range = "\(requested.lowerBound)-"
            if let ifRange = validators.ifRangeValue { curl.headers.append("If-Range: \(ifRange)") }
        case .range:
            // A bounded range on its own HTTP/1.1 connection: h2 streams would share one window and one cap.
            curl.range = "\(requested.lowerBound)-\(requested.upperBound - 1)"
            curl.http11Only = true
            curl.freshConnection = fresh
            if let ifRange = validators.ifRangeValue { curl.headers.append("If-Range: \(ifRange)") }
        }
        return curl
    }
}
