/// The script for one path: what content the server has there and which faults it injects.
///
/// Counters that a plan mentions (`failFirst`, `dropTimes`, `stallTimes`, `changeAfterRequests`)
/// count requests and responses since the plan was installed with `FaultServer.route(_:_:)`.
/// Faults that act on the body (`throttle`, `dropAfter`, `stallAfter`, `shortBy`) count the body
/// bytes of one response, so a resumed 206 starts counting from 0 again.
public struct FaultPlan: Sendable, Equatable {
    /// The content at the path.
    public enum Body: Sendable, Equatable {
        /// `size` deterministic pseudo-random bytes from `seed` (SplitMix64, seekable, no storage).
        case generated(size: Int64, seed: UInt64)
        /// Exactly these bytes.
        case bytes([UInt8])
    }

    /// A redirect answer instead of content.
    public struct Redirect: Sendable, Equatable {
        /// 301, 302, 303, 307 or 308.
        public var status: Int
        /// Sent as is: a path ("/x") or an absolute URL.
        public var location: String

        public init(status: Int = 302, location: String) {
            self.status = status
            self.location = location
        }
    }

    public var body: Body
    /// Strong ETag; nil means one derived from the body and version, e.g. `"1048576-7-v1"`.
    /// In version 2 (see `changeAfterRequests`) an explicit value gets `-v2` before its closing quote.
    public var etag: String?
    /// False sends no ETag at all (If-Range can then only match Last-Modified).
    public var sendETag: Bool = true
    /// nil means a fixed HTTP date, one day later in version 2.
    public var lastModified: String?
    /// False sends no Last-Modified.
    public var sendLastModified: Bool = true
    /// False ignores Range and If-Range and always answers 200 with the full body.
    public var acceptRanges: Bool = true
    /// Body bytes per second per response; nil is as fast as the socket goes.
    public var throttle: Int?
    /// Body bytes per second per TCP connection, held across its keep-alive requests (a token bucket with a
    /// 64 KiB burst): the k-th connection (0-based) to ask for the path gets `connectionRates[k % count]`.
    /// One rate caps every connection alike; several give the unequal case. nil or empty: no cap.
    public var connectionRates: [Int]?
    /// Close the connection after this many body bytes of a response ...
    public var dropAfter: Int64?
    /// ... for the first `dropTimes` responses that reach that point.
    public var dropTimes: Int = 1
    /// After this many body bytes of a response, go silent with the socket open ...
    public var stallAfter: Int64?
    /// ... for the first `stallTimes` responses that reach that point.
    public var stallTimes: Int = 1
    /// After this many requests the content changes (seed + 1, or flipped bytes) and so does the ETag.
    public var changeAfterRequests: Int?
    /// Announce the true length but send this many bytes fewer, then close.
    public var shortBy: Int64?
    /// `Transfer-Encoding: chunked`, no Content-Length, no ranges.
    public var chunked: Bool = false
    /// The first `failFirst` requests get `failStatus` ...
    public var failFirst: Int = 0
    public var failStatus: Int = 503
    /// ... with `Retry-After: N` when set.
    public var retryAfter: Int?
    /// Answer with a redirect instead of content.
    public var redirect: Redirect?
    /// Answer every request with this status and a small HTML body; never the file.
    public var status: Int?
    /// Raw `Content-Disposition` value.
    public var contentDisposition: String?
    /// Send header values as ISO-8859-1 bytes instead of UTF-8, as older servers do (`caf\xE9.txt`).
    public var latin1Headers: Bool = false
    /// Wait this long before sending the status line.
    public var headerDelay: Duration?
    /// Lie: answer a range request with a 206 for bytes from here to the end instead.
    public var wrongRangeStart: Int64?
    public var contentType: String = "application/octet-stream"
    /// The `Server` header of its content answers; nil sends `haul-fault-server`. Two servers' ETags are compared
    /// only when they name the same software (or the same host).
    public var server: String?
    /// A fault only for the extra connections of a segmented download: requests whose Range starts after byte 0 ...
    public var extraFault: ExtraFault?
    /// ... for the first `extraFaultTimes` of them since the plan was installed.
    public var extraFaultTimes: Int = 1
    /// Every answer with content sets this many new cookies, `TAG_0=1` … `TAG_(N-1)=1` (path `/`), where TAG is
    /// `cookieTag`, or `rK` for the K-th request (1-based) since the plan was installed.
    public var setCookies: Int = 0
    public var cookieTag: String?

    /// What an extra connection's request gets instead of a faithful 206 (see `extraFault`).
    public enum ExtraFault: Sendable, Equatable {
        /// `failStatus`, with `Retry-After` when `retryAfter` is set.
        case fail
        /// 416 with `Content-Range: bytes */SIZE`.
        case unsatisfiable
        /// A 200 with the whole body: the Range is ignored although `Accept-Ranges: bytes` is announced.
        case ignoreRange
        /// A 206 of the next version (its bytes and ETag), If-Range notwithstanding.
        case changedETag
        /// A 206 that says so and carries at most this many bytes of the range asked for.
        case cap(Int64)
        /// A 206 that announces the range asked for but sends this many bytes fewer, then closes.
        case short(Int64)
        /// A 206 for the bytes from this many bytes after the start asked for (Content-Range and body agree).
        case wrongStart(Int64)
        /// A faithful 206 that goes silent after this many body bytes, socket open.
        case stall(Int64)
    }

    public init(
        body: Body,
        etag: String? = nil,
        sendETag: Bool = true,
        lastModified: String? = nil,
        sendLastModified: Bool = true,
        acceptRanges: Bool = true,
        throttle: Int? = nil,
        connectionRates: [Int]? = nil,
        dropAfter: Int64? = nil,
        dropTimes: Int = 1,
        stallAfter: Int64? = nil,
        stallTimes: Int = 1,
        changeAfterRequests: Int? = nil,
        shortBy: Int64? = nil,
        chunked: Bool = false,
        failFirst: Int = 0,
        failStatus: Int = 503,
        retryAfter: Int? = nil,
        redirect: Redirect? = nil,
        status: Int? = nil,
        contentDisposition: String? = nil,
        headerDelay: Duration? = nil,
        wrongRangeStart: Int64? = nil,
        contentType: String = "application/octet-stream"
    ) {
        self.body = body
        self.etag = etag
        self.sendETag = sendETag
        self.lastModified = lastModified
        self.sendLastModified = sendLastModified
        self.acceptRanges = acceptRanges
        self.throttle = throttle
        self.connectionRates = connectionRates
        self.dropAfter = dropAfter
        self.dropTimes = dropTimes
        self.stallAfter = stallAfter
        self.stallTimes = stallTimes
        self.changeAfterRequests = changeAfterRequests
        self.shortBy = shortBy
        self.chunked = chunked
        self.failFirst = failFirst
        self.failStatus = failStatus
        self.retryAfter = retryAfter
        self.redirect = redirect
        self.status = status
        self.contentDisposition = contentDisposition
        self.headerDelay = headerDelay
        self.wrongRangeStart = wrongRangeStart
        self.contentType = contentType
    }

    /// A well-behaved file of `size` generated bytes.
    public static func file(size: Int64, seed: UInt64 = 1) -> FaultPlan {
        FaultPlan(body: .generated(size: size, seed: seed))
    }

    /// A redirect to `location`.
    public static func redirect(to location: String, status: Int = 302) -> FaultPlan {
        FaultPlan(body: .bytes([]), redirect: Redirect(status: status, location: location))
    }

    /// A fixed error status such as 404.
    public static func status(_ code: Int) -> FaultPlan {
        FaultPlan(body: .bytes([]), status: code)
    }
}

extension FaultPlan {
    /// The content version served to the `requestNumber`th request (1-based) since the plan was installed.
    func version(forRequest requestNumber: Int) -> Int {
        guard let after = changeAfterRequests, requestNumber > after else { return 1 }
        return 2
    }

    /// The ETag header value for `version`, or nil when none is sent.
    func etagValue(version: Int) -> String? {
        guard sendETag else { return nil }
        guard let etag else { return body.defaultETag(version: version) }
        guard version > 1 else { return etag }
        if etag.hasSuffix("\"") {
            return String(etag.dropLast()) + "-v\(version)\""
        }
        return etag + "-v\(version)"
    }

    /// The cap of the connection in place `order` (0-based) among those that asked for the path; nil when uncapped.
    public func connectionRate(forConnection order: Int) -> Int? {
        guard let rates = connectionRates, !rates.isEmpty else { return nil }
        return rates[order % rates.count]
    }

    /// The Last-Modified header value for `version`, or nil when none is sent.
    func lastModifiedValue(version: Int) -> String? {
        guard sendLastModified else { return nil }
        if let lastModified { return lastModified }
        return version > 1 ? "Tue, 07 Jan 2025 10:00:00 GMT" : "Mon, 06 Jan 2025 10:00:00 GMT"
    }
}
