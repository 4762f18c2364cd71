import CCurl
import HaulCore

extension ActiveTransfer {
    /// Sets every option on the easy handle. Callbacks and `CURLINFO_PRIVATE` get an unretained pointer
    /// to `self`, which the engine's table keeps alive until the handle has left the multi handle.
    func configure() throws(CurlError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let options = request.options
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_FOLLOWLOCATION, true)
        try easy.set(CURLOPT_MAXREDIRS, 10)
        try easy.set(CURLOPT_CONNECTTIMEOUT, options.connectTimeout)
        try easy.set(CURLOPT_LOW_SPEED_LIMIT, 1)
        try easy.set(CURLOPT_LOW_SPEED_TIME, options.stallTimeout)
        // 256 KiB reads are cheapest; with a rate limit, smaller reads keep libcurl from bursting past it.
        let buffer = options.rateLimit.map { Int(max(16 << 10, min(256 << 10, $0 / 8))) } ?? 256 << 10
        try easy.set(CURLOPT_BUFFERSIZE, buffer)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_USERAGENT, "haul/0.1")
        try easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        if let limit = options.rateLimit { try easy.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: limit) }
        if let ca = options.caCertificate { try easy.set(CURLOPT_CAINFO, ca) }
        var headers = request.headers
        if requestedOffset > 0 {
            try easy.set(CURLOPT_RANGE, "\(requestedOffset)-")
            if let ifRange = request.validators.ifRangeValue { headers.append("If-Range: \(ifRange)") }
        }
        if !headers.isEmpty { try easy.setHeaders(headers) }
        try easy.set(CURLOPT_HEADERFUNCTION, callback: headerCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: bodyCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_PRIVATE, pointer: context)
    }

    /// The transfer an easy handle belongs to, through `CURLINFO_PRIVATE`.
    static func owner(of easy: UnsafeMutableRawPointer) -> ActiveTransfer? {
        guard let context = CurlEasy.info(pointer: CURLINFO_PRIVATE, of: easy) else { return nil }
        return Unmanaged<ActiveTransfer>.fromOpaque(context).takeUnretainedValue()
    }
}

/// `CURLOPT_HEADERFUNCTION`: one header line of any response.
private let headerCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.onHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// `CURLOPT_WRITEFUNCTION`: body bytes of the final response; returning less than given aborts the transfer.
private let bodyCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<ActiveTransfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.onBody(UnsafeRawBufferPointer(start: data, count: size * count))
}
