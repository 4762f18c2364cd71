extension FaultPlan {
    /// The query parameters `/gen/NAME?...` understands, for usage text and error pages.
    public static let queryParameters = """
        size=N (required)  seed=S  throttle=B/s  drop=N  drops=K
        stall=N  stalls=K  short=N  norange=1  chunked=1  change=K
        fail=K  failstatus=C  retryafter=S  status=C  delay=MS
        wrongstart=N  filename=NAME  type=MIME
        conncap=B/s          every TCP connection capped at B/s, across its
                             keep-alive requests (token bucket, 64 KiB burst)
        conncaps=B/s,B/s,..  per-connection caps handed out in the order
                             connections first ask for the path, cycling
        xfault=fail|416|full|etag|cap:N|short:N|wrongstart:N|stall:N  xfaults=K
          (only requests whose Range starts after byte 0: the extra connections)
        Sizes and rates take k, m, g suffixes (1024-based).
        GET /stats?path=/gen/NAME answers that path's requests, connections
        and body bytes as one JSON line; &times=1 adds firstHeadTimes, each
        connection's first response head in monotonic seconds.
        GET /sent answers the body bytes sent for all paths so far and the
        monotonic time, as one JSON line (poll it for a time series).
        """

    /// Whether a query flag is on (`1`, `true` or `yes`).
    static func isTrue(_ value: String?) -> Bool { ["1", "true", "yes"].contains(value ?? "") }

    /// Builds an ad-hoc plan from the query of a `/gen/NAME` request; nil when `size` is missing or any value is malformed.
    ///
    /// The seed defaults to a hash of `name`, so `/gen/a.bin?size=1m` and `/gen/b.bin?size=1m` differ.
    public static func fromQuery(_ query: [String: String], name: String) -> FaultPlan? {
        guard let size = query["size"].flatMap(parseSize) else { return nil }
        var valid = true
        var seed = defaultSeed(for: name)
        if let text = query["seed"] {
            guard let value = UInt64(text) else { return nil }
            seed = value
        }
        var plan = FaultPlan.file(size: size, seed: seed)
        func number(_ key: String) -> Int64? {
            guard let text = query[key] else { return nil }
            guard let value = parseSize(text) else {
                valid = false
                return nil
            }
            return value
        }
        func flag(_ key: String) -> Bool { isTrue(query[key]) }

        plan.throttle = number("throttle").map { Int($0) }
        if let text = query["conncaps"] ?? query["conncap"] {
            let rates = text.split(separator: ",", omittingEmptySubsequences: false).map { parseSize(String($0)) }
            guard !rates.isEmpty, rates.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
            plan.connectionRates = rates.map { Int($0!) }
        }
        plan.dropAfter = number("drop")
        plan.dropTimes = number("drops").map { Int($0) } ?? 1
        plan.stallAfter = number("stall")
        plan.stallTimes = number("stalls").map { Int($0) } ?? 1
        plan.shortBy = number("short")
        plan.acceptRanges = !flag("norange")
        plan.chunked = flag("chunked")
        plan.changeAfterRequests = number("change").map { Int($0) }
        plan.failFirst = number("fail").map { Int($0) } ?? 0
        plan.failStatus = number("failstatus").map { Int($0) } ?? 503
        plan.retryAfter = number("retryafter").map { Int($0) }
        plan.status = number("status").map { Int($0) }
        plan.headerDelay = number("delay").map { Duration.milliseconds($0) }
        plan.wrongRangeStart = number("wrongstart")
        if let filename = query["filename"] {
            plan.contentDisposition = "attachment; filename*=UTF-8''" + percentEncoded(filename)
        }
        if let type = query["type"] { plan.contentType = type }
        if let text = query["xfault"] {
            guard let fault = parseExtraFault(text) else { return nil }
            plan.extraFault = fault
        }
        plan.extraFaultTimes = number("xfaults").map { Int($0) } ?? 1
        return valid ? plan : nil
    }

    /// Parses an `xfault` value: `fail`, `416`, `full`, `etag`, or `cap:N`, `short:N`, `wrongstart:N`, `stall:N`.
    static func parseExtraFault(_ text: String) -> ExtraFault? {
        switch text.lowercased() {
        case "fail": return .fail
        case "416": return .unsatisfiable
        case "full": return .ignoreRange
        case "etag": return .changedETag
        default: break
        }
        let parts = text.lowercased().split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let amount = parseSize(parts[1]) else { return nil }
        switch parts[0] {
        case "cap": return amount > 0 ? .cap(amount) : nil
        case "short": return .short(amount)
        case "wrongstart": return .wrongStart(amount)
        case "stall": return .stall(amount)
        default: return nil
        }
    }

    /// Parses `123`, `4k`, `5M`, `2g` (1024-based) into a count; nil when malformed or negative.
    static func parseSize(_ text: String) -> Int64? {
        let lowered = text.lowercased().trimmingSpaces()
        let multipliers: [Character: Int64] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        if let last = lowered.last, let multiplier = multipliers[last] {
            guard let value = Int64(lowered.dropLast()), value >= 0 else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
            return overflow ? nil : product
        }
        guard let value = Int64(lowered), value >= 0 else { return nil }
        return value
    }

    /// A stable seed for a name (FNV-1a of its UTF-8 bytes).
    static func defaultSeed(for name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// RFC 3986 percent-encoding of everything but unreserved characters (for `filename*`).
    public static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
