/// What the server will send for one request: a head and what follows it.
struct PlannedResponse {
    /// What follows the head.
    enum Payload {
        /// A small fixed body (error page, redirect note).
        case page([UInt8])
        /// A slice of the route's content, subject to the plan's body faults.
        case content(FaultPlan.Body, range: Range<Int64>, version: Int, chunked: Bool)
    }

    var status: Int
    var headers: [(name: String, value: String)]
    var payload: Payload
    /// Header values go out as ISO-8859-1 (one byte per scalar, `?` above U+00FF) instead of UTF-8.
    var latin1Headers = false
    /// A fault for this response's body alone (an extra connection's `short` or `stall`).
    var bodyFault: BodyFault?

    enum BodyFault: Equatable {
        /// Send this many bytes fewer than announced, then close.
        case short(Int64)
        /// Go silent after this many body bytes.
        case stall(Int64)
    }

    /// The status line and header block, ready to send.
    func encodedHead(closing: Bool) -> [UInt8] {
        var bytes = Array("HTTP/1.1 \(status) \(Self.reason(status))\r\n".utf8)
        for header in headers {
            bytes += Array("\(header.name): ".utf8)
            bytes += latin1Headers ? Self.latin1(header.value) : Array(header.value.utf8)
            bytes += Array("\r\n".utf8)
        }
        if closing { bytes += Array("Connection: close\r\n".utf8) }
        bytes += Array("\r\n".utf8)
        return bytes
    }

    /// The text as ISO-8859-1 bytes; a scalar the charset lacks becomes `?`.
    static func latin1(_ text: String) -> [UInt8] {
        text.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") }
    }

    /// The standard reason phrase, or a generic one.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }

    /// A small HTML page answer with `status`.
    static func page(_ status: Int, extraHeaders: [(name: String, value: String)] = [], note: String = "")
        -> PlannedResponse
    {
        let html = "<html><head><title>\(status) \(reason(status))</title></head>"
            + "<body><h1>\(status) \(reason(status))</h1>\(note)</body></html>\n"
        let body = Array(html.utf8)
        let headers = serverHeader + extraHeaders + [
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "\(body.count)"),
        ]
        return PlannedResponse(status: status, headers: headers, payload: .page(body))
    }

    /// A 200 answer with `text` as a small JSON body (the stats page).
    static func text(_ text: String) -> PlannedResponse {
        let body = Array(text.utf8)
        let headers = serverHeader + [("Content-Type", "application/json"), ("Content-Length", "\(body.count)")]
        return PlannedResponse(status: 200, headers: headers, payload: .page(body))
    }

    static let serverHeader: [(name: String, value: String)] = [("Server", "haul-fault-server")]
}

/// Decides the response to a request from the path's plan, like a real server would (pure).
enum ResponsePlanner {
    /// The response to the `requestNumber`th request (1-based) since `plan` was installed; `extraNumber` counts
    /// the requests whose Range starts after byte 0 (nil for others), which the plan's `extraFault` hits.
    static func respond(
        to request: HTTPRequest, plan: FaultPlan, requestNumber: Int, extraNumber: Int? = nil
    ) -> PlannedResponse {
        let retry = plan.retryAfter.map { [(name: "Retry-After", value: "\($0)")] } ?? []
        if requestNumber <= plan.failFirst {
            return .page(plan.failStatus, extraHeaders: retry)
        }
        if let extraNumber, extraNumber <= plan.extraFaultTimes, let fault = plan.extraFault {
            return extraFault(fault, for: request, plan: plan, version: plan.version(forRequest: requestNumber))
        }
        if let status = plan.status {
            return .page(status)
        }
        if let redirect = plan.redirect {
            return .page(redirect.status, extraHeaders: [("Location", redirect.location)])
        }
        var response = content(for: request, plan: plan, version: plan.version(forRequest: requestNumber))
        response.latin1Headers = plan.latin1Headers
        response.headers += setCookieHeaders(plan: plan, requestNumber: requestNumber)
        return response
    }

    /// The plan's `setCookies` for the `requestNumber`th request.
    static func setCookieHeaders(plan: FaultPlan, requestNumber: Int) -> [(name: String, value: String)] {
        let tag = plan.cookieTag ?? "r\(requestNumber)"
        return (0..<max(plan.setCookies, 0)).map { ("Set-Cookie", "\(tag)_\($0)=1; Path=/") }
    }

    /// What an extra connection's request gets under `fault`.
    static func extraFault(_ fault: FaultPlan.ExtraFault, for request: HTTPRequest, plan: FaultPlan, version: Int)
        -> PlannedResponse
    {
        var response: PlannedResponse
        switch fault {
        case .fail:
            let retry = plan.retryAfter.map { [(name: "Retry-After", value: "\($0)")] } ?? []
            return .page(plan.failStatus, extraHeaders: retry)
        case .unsatisfiable:
            return .page(416, extraHeaders: [("Content-Range", "bytes */\(plan.body.size)")])
        case .ignoreRange:
            response = content(for: request, plan: plan, version: version, honourRange: false)
        case .changedETag:
            response = content(for: request, plan: plan, version: version + 1, ignoreIfRange: true)
        case .cap(let count):
            response = content(for: request, plan: plan, version: version) { $0.lowerBound..<min($0.upperBound, $0.lowerBound + count) }
        case .wrongStart(let offset):
            response = content(for: request, plan: plan, version: version) { min($0.lowerBound + offset, $0.upperBound - 1)..<$0.upperBound }
        case .short(let count):
            response = content(for: request, plan: plan, version: version)
            response.bodyFault = .short(count)
        case .stall(let count):
            response = content(for: request, plan: plan, version: version)
            response.bodyFault = .stall(count)
        }
        response.latin1Headers = plan.latin1Headers
        return response
    }

    /// 200, 206 or 416 for the plan's content in `version`.
    ///
    /// `honourRange: false` answers 200 whatever the Range says; `ignoreIfRange` serves a range even when
    /// If-Range does not match; `reshape` changes the slice a 206 carries (Content-Range follows it).
    static func content(
        for request: HTTPRequest, plan: FaultPlan, version: Int, honourRange: Bool = true, ignoreIfRange: Bool = false,
        reshape: (Range<Int64>) -> Range<Int64> = { $0 }
    ) -> PlannedResponse {
        let size = plan.body.size
        let etag = plan.etagValue(version: version)
        let lastModified = plan.lastModifiedValue(version: version)
        let server = plan.server.map { [(name: "Server", value: $0)] } ?? PlannedResponse.serverHeader
        var headers = server + [(name: "Content-Type", value: plan.contentType)]
        if let etag { headers.append(("ETag", etag)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        if let disposition = plan.contentDisposition { headers.append(("Content-Disposition", disposition)) }

        if plan.chunked {
            headers.append(("Transfer-Encoding", "chunked"))
            return PlannedResponse(
                status: 200, headers: headers, payload: .content(plan.body, range: 0..<size, version: version, chunked: true))
        }
        if plan.acceptRanges { headers.append(("Accept-Ranges", "bytes")) }

        let range = plan.acceptRanges && honourRange ? request.header("Range").flatMap(RangeRequest.parse) : nil
        if let range, ignoreIfRange || ifRangeHolds(request.header("If-Range"), etag: etag, lastModified: lastModified) {
            switch range.resolve(size: size) {
            case .unsatisfiable:
                return .page(416, extraHeaders: [("Content-Range", "bytes */\(size)")])
            case .satisfiable(var slice):
                slice = reshape(slice)
                if let lie = plan.wrongRangeStart {
                    let start = min(max(lie, 0), max(size - 1, 0))
                    slice = start..<size
                }
                headers.append(("Content-Range", "bytes \(slice.lowerBound)-\(slice.upperBound - 1)/\(size)"))
                headers.append(("Content-Length", "\(slice.count)"))
                return PlannedResponse(
                    status: 206, headers: headers, payload: .content(plan.body, range: slice, version: version, chunked: false))
            }
        }
        headers.append(("Content-Length", "\(size)"))
        return PlannedResponse(
            status: 200, headers: headers, payload: .content(plan.body, range: 0..<size, version: version, chunked: false))
    }

    /// Whether a Range may be honoured: no If-Range, or one that equals the strong ETag or the Last-Modified date.
    static func ifRangeHolds(_ ifRange: String?, etag: String?, lastModified: String?) -> Bool {
        guard let ifRange = ifRange?.trimmingSpaces() else { return true }
        if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
            guard let etag, !etag.hasPrefix("W/"), !ifRange.hasPrefix("W/") else { return false }
            return ifRange == etag
        }
        return lastModified != nil && ifRange == lastModified
    }
}
