import HaulCore

/// One request of a stream download (DESIGN §9): a playlist, a key, an init section or a segment, its body
/// gathered in memory up to a bound. Confined to the transfer thread; libcurl reaches it through an unretained
/// pointer that its stream keeps alive until the handle has left the multi handle.
final class StreamFetch: CurlReceiver, PacedConnection {
    enum Purpose: Equatable {
        /// A playlist: the task's link (depth 0) or the chosen variant's (depth 1).
        case playlist(depth: Int)
        /// The media playlist of the variant's separate audio rendition.
        case audioPlaylist
        case key(String)
        case initSection(InitSection)
        /// The segment at `index` of a track's media playlist (0: the variant's, 1: its audio).
        case segment(track: Int, index: Int)
        /// A track's media playlist fetched again for fresh segment links.
        case freshLinks(track: Int)
    }

    let purpose: Purpose
    let url: String
    /// The bytes of `url` it asks for (`EXT-X-BYTERANGE`); nil for all of it.
    let range: Range<Int64>?
    let easy = CurlEasy()
    unowned let stream: StreamTransfer
    var head = ResponseHead()
    private(set) var body: [UInt8] = []
    /// Most bytes the body may have.
    let limit: Int
    /// Why it must end, set by a callback.
    private(set) var failure: DownloadError?
    /// Stopped to keep the stream within its memory bound (`StreamTransfer.mustShed`): asked again later, not a fault.
    private(set) var shed = false
    /// For a segment: its track's `linkGeneration` when its link was handed out.
    var linkGeneration = 0
    var bytesSinceTick: Int64 = 0
    var receiveBuffer: Int?
    /// The redirect target it asks now (the engine follows redirects itself, `RedirectHop`); nil for `url`.
    private(set) var hop: String?
    private(set) var hops = 0

    init(purpose: Purpose, url: String, range: Range<Int64>?, limit: Int, stream: StreamTransfer) {
        self.purpose = purpose
        self.url = url
        self.range = range
        self.limit = limit
        self.stream = stream
    }

    var bodyCount: Int { body.count }
    /// What its answer announced (`Content-Length`), at most `limit`: a larger one fails the fetch.
    var announcedBytes: Int? { head.contentLength.map { Int(min($0, Int64(limit))) } }
    /// The bound as the messages give it ("1.0 KiB" for a key).
    private var limitText: String { ByteCountFormat.size(Int64(limit)) }
    var pacedTask: TaskID { stream.request.id }
    var taskConnections: Int { stream.request.options.split }
    var host: String { URLValidation.host(of: url) }

    /// Sets the easy handle up; its callbacks come back here.
    func configure() throws(CurlError) {
        easy.receiver = self
        var request = ConnectionRequest.make(
            role: range == nil ? .first : .range, request: stream.request, url: hop ?? url,
            requested: range ?? 0..<Int64.max, validators: RemoteValidators(), fresh: false, netrc: stream.netrc)
        // Segments ask for the whole resource or one range each, never a resumed one: a first request at 0.
        request.http11Only = true
        request.receiveBuffer = stream.budget.receiveBuffer(for: self)
        receiveBuffer = request.receiveBuffer
        request.cookies = stream.cookies.share
        request.cookieSeed = stream.cookies.takeSeed()
        request.publicOnly = stream.publicOrigin
        try easy.apply(request)
    }

    /// The next hop of a redirect after libcurl let go of it as `result`; nil when its answer stands (a redirect
    /// that is not followed becomes its failure).
    func nextHop(after result: CurlResult) -> String? {
        guard result.isOK, failure == nil, easy.refusedAddress == nil else { return nil }
        switch RedirectHop.next(head: head, target: easy.redirectURL, hops: hops, host: host) {
        case .answered: return nil
        case let .follow(url): return url
        case let .refused(error):
            failure = error
            return nil
        }
    }

    /// Ends it for `error` (its next hop could not be set up).
    func fail(_ error: DownloadError) {
        if failure == nil { failure = error }
    }

    /// Sets the handle up again for the next hop `url` (taken off the multi handle first); the engine adds it back.
    func follow(_ url: String) throws(CurlError) {
        hop = url
        hops += 1
        head = ResponseHead()
        easy.reset()
        try configure()
    }

    /// The fetch an easy handle belongs to.
    static func owner(of easy: CurlEasy) -> StreamFetch? { easy.receiver as? StreamFetch }

    /// The body, once libcurl let go of it as `result`; else why it cannot be used.
    func outcome(_ result: CurlResult) -> Result<[UInt8], DownloadError> {
        if let failure { return .failure(failure) }
        if let address = easy.refusedAddress {
            return .failure(.privateNetwork(address: address, host: host))
        }
        guard result.isOK else {
            return .failure(DownloadError(
                curl: result, detail: easy.errorDetail, url: url, effectiveURL: easy.effectiveURL, host: host,
                responseSeen: head.status != 0, stallTimeout: stream.request.options.stallTimeout,
                proxyStatus: easy.proxyConnectStatus,
                proxy: stream.request.requestOptions.proxies?.redacted.proxy(for: hop ?? url)))
        }
        if let range, body.count != range.count {
            return .failure(.badContentRange("\(body.count) bytes arrived for a range of \(range.count)"))
        }
        if let length = head.contentLength, range == nil, Int64(body.count) != length {
            return .failure(.sizeMismatch(expected: length, actual: Int64(body.count)))
        }
        if Self.isWebPage(body), purpose.isSegmentOrPart {
            // A login or error page served with 200 instead of media: never appended to the video.
            return .failure(.invalidResponse(host: host, detail: "the answer is a web page (HTML), not media"))
        }
        return .success(body)
    }

    /// Whether `body` starts like an HTML document (after blanks): `<!doctype html` or `<html`.
    static func isWebPage(_ body: [UInt8]) -> Bool {
        let start = body.prefix(512).drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        let head = String(decoding: start.prefix(14), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    // MARK: - Callbacks (transfer thread, inside curl_multi_perform)

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard head.feed(bytes: bytes), !head.isInformational, !head.isFollowedRedirect else { return bytes.count }
        if !(200..<300).contains(head.status) {
            let tried = head.status == 401 ? HopLogin.refused(at: hop ?? url, links: stream.request.links, netrc: stream.netrc) : nil
            failure = head.statusError(host: host).refusing(tried, host: URLValidation.host(of: hop ?? url))
        } else if range != nil, head.status != 206 {
            failure = .streamRangesIgnored(host: host)
        } else if let refusal = head.implausibleSize(host: host) {
            failure = refusal
        } else if let length = head.contentLength, length > limit {
            failure = .invalidResponse(host: host, detail: "\(length) bytes is more than a stream part may have (\(limitText))")
        } else if let length = head.contentLength {
            // One allocation for the whole body.
            body.reserveCapacity(Int(length))
            // Its size tells how many more segments fit in memory: they may start now, not when it ends.
            if case .segment = purpose { stream.segmentAnnounced() }
        }
        return bytes.count
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard failure == nil else { return 0 }
        // A redirect's own page: the next hop's answer is the one that counts.
        if head.isComplete, head.isFollowedRedirect { return bytes.count }
        guard head.isComplete else {
            failure = .invalidResponse(host: host, detail: "body data arrived before a complete response head")
            return 0
        }
        guard body.count + bytes.count <= limit else {
            failure = .invalidResponse(host: host, detail: "more than \(limitText) for one stream part")
            return 0
        }
        if head.contentLength == nil, stream.mustShed(self, receiving: bytes.count) {
            shed = true
            return 0
        }
        // Over budget: libcurl keeps the bytes and hands them again once the budget resumes us.
        guard stream.budget.mayReceive(self) else { return CurlEasy.pauseReading }
        body.append(contentsOf: bytes)
        bytesSinceTick += Int64(bytes.count)
        stream.budget.took(bytes.count, for: self)
        return bytes.count
    }
}

extension StreamFetch.Purpose {
    /// Whether it fetches media or a key, not a playlist.
    var isSegmentOrPart: Bool {
        switch self {
        case .playlist, .audioPlaylist, .freshLinks: false
        case .key, .initSection, .segment: true
        }
    }
}
