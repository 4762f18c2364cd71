import CCurl
import HaulCore

extension Connection {
    /// Sets every option on the easy handle. Callbacks and `CURLINFO_PRIVATE` get an unretained pointer
    /// to `self`, which its transfer keeps alive until the handle has left the multi handle.
    func configure() throws(CurlError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let request = transfer.request
        let options = request.options
        let url = transfer.url(for: self)
        try easy.set(CURLOPT_URL, url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_FOLLOWLOCATION, true)
        try easy.set(CURLOPT_MAXREDIRS, 10)
        try easy.set(CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, options.stallTimeout)
        // 256 KiB reads are cheapest; under a limit, small reads let the budget pace them evenly.
        try easy.set(CURLOPT_BUFFERSIZE, options.rateLimit == nil ? 256 << 10 : 16 << 10)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        // A proxy's answer to CONNECT is the proxy's, not the server's: only the server's heads are parsed.
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true)
        try easy.set(CURLOPT_USERAGENT, "haul/0.1")
        try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        if let ca = options.caCertificate { try easy.set(CURLOPT_CAINFO, ca) }
        // An extra connection asks the first one's redirect target directly: credentials stay with their origin.
        var headers = RedirectCredentials.headers(request.headers, original: request.url, target: url)
        switch role {
        case .first:
            if requested.lowerBound > 0 {
                try easy.set(CURLOPT_RANGE, "\(requested.lowerBound)-")
                if let ifRange = request.validators.ifRangeValue { headers.append("If-Range: \(ifRange)") }
            }
        case .range:
            // A bounded range on its own HTTP/1.1 connection: h2 streams would share one window and one cap.
            try easy.set(CURLOPT_RANGE, "\(requested.lowerBound)-\(requested.upperBound - 1)")
            try easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            if fresh { try easy.set(CURLOPT_FRESH_CONNECT, true) }
            if let ifRange = transfer.validators.ifRangeValue { headers.append("If-Range: \(ifRange)") }
        }
        if !headers.isEmpty { try easy.setHeaders(headers) }
        try easy.set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: bodyCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_PRIVATE, pointer: context)
    }

    /// The connection an easy handle belongs to, through `CURLINFO_PRIVATE`.
    static func owner(of easy: UnsafeMutableRawPointer) -> Connection? {
        guard let context = CurlEasy.info(pointer: CURLINFO_PRIVATE, of: easy) else { return nil }
        return Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
    }
}

/// `CURLOPT_HEADERFUNCTION`: one header line of any response.
private let headerCallback: curl_write_callback = { data, size, count, context in
    let connection = Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue()
    return connection.onHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// `CURLOPT_WRITEFUNCTION`: body bytes of the final response; returning less than given aborts the transfer.
private let bodyCallback: curl_write_callback = { data, size, count, context in
    let connection = Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue()
    return connection.onBody(UnsafeRawBufferPointer(start: data, count: size * count))
}
