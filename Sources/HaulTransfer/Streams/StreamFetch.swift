import HaulCore

/// One request of a stream download (DESIGN §9): a playlist, a key, an init section or a segment, its body
/// gathered in memory up to a bound. It knows nothing of its stream: libcurl's callbacks go to the stream
/// (`StreamTransfer+Callbacks`), which finds the fetch by its handle. Confined to the transfer thread.
final class StreamFetch: EngineRequest {
    enum Purpose: Equatable {
        /// A playlist: the task's link (depth 0) or the chosen variant's (depth 1).
        case playlist(depth: Int)
        /// The media playlist of the variant's separate audio rendition.
        case audioPlaylist
        case key(String)
        case initSection(InitSection)
        /// The segment at `index` of a track's media playlist (0: the variant's, 1: its audio).
        case segment(track: Int, index: Int)
        /// The `sidx` box of a DASH `SegmentBase` representation.
        case segmentIndex(DASHIndexRequest)
        /// A track's media playlist fetched again for fresh segment links.
        case freshLinks(track: Int)
        /// A live track's media playlist fetched again for the segments added since (`StreamTransfer+Live`).
        case liveReload(track: Int)
        /// A subtitle rendition's media playlist, and one of its WebVTT segments (`SubtitleTrack`).
        case subtitlePlaylist(Int)
        case subtitleSegment(Int, Int)
    }

    let purpose: Purpose
    let url: String
    /// The bytes of `url` it asks for (`EXT-X-BYTERANGE`); nil for all of it.
    let range: Range<Int64>?
    let easy = CurlEasy()
    /// The task whose budgets pace it.
    let pacedTask: TaskID
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

    init(purpose: Purpose, url: String, range: Range<Int64>?, limit: Int, task: TaskID) {
        self.purpose = purpose
        self.url = url
        self.range = range
        self.limit = limit
        pacedTask = task
    }

    var bodyCount: Int { body.count }
    /// What its answer announced (`Content-Length`), at most `limit`: a larger one fails the fetch.
    var announcedBytes: Int? { head.contentLength.map { Int(min($0, Int64(limit))) } }
    /// The bound as the messages give it ("1.0 KiB" for a key).
    private var limitText: String { ByteCountFormat.size(Int64(limit)) }
    var host: String { URLValidation.host(of: url) }
    /// The URL it asks now: its own, or the redirect target it follows.
    var currentURL: String { hop ?? url }

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

    /// Forgets the last answer and clears the handle for the next hop `url` (taken off the multi handle first); its
    /// stream sets it up again and the engine adds it back.
    func hop(to url: String) {
        hop = url
        hops += 1
        head = ResponseHead()
        easy.reset()
    }

    /// The body, once libcurl let go of it as `result`; else why it cannot be used (`stallTimeout` and `proxies` are
    /// its task's, for the message).
    func outcome(_ result: CurlResult, stallTimeout: Int, proxies: ProxySettings?) -> Result<[UInt8], DownloadError> {
        if let failure { return .failure(failure) }
        if let address = easy.refusedAddress {
            return .failure(.privateNetwork(address: address, host: host))
        }
        guard result.isOK else {
            return .failure(DownloadError(
                curl: result, detail: easy.errorDetail, url: url, effectiveURL: easy.effectiveURL, host: host,
                responseSeen: head.status != 0, stallTimeout: stallTimeout,
                proxyStatus: easy.proxyConnectStatus, proxy: proxies?.redacted.proxy(for: currentURL)))
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

    // MARK: - What its callbacks take (transfer thread, inside curl_multi_perform)

    /// Takes a header line; true when it completed the head of a segment whose size it announces (the stream may
    /// start more segments now: `StreamTransfer.segmentAnnounced`). A 401 names the login refused (`links`, `netrc`).
    func takeHeaderLine(_ bytes: UnsafeRawBufferPointer, links: [String], netrc: NetrcFile?) -> Bool {
        guard head.feed(bytes: bytes), !head.isInformational, !head.isFollowedRedirect else { return false }
        if !(200..<300).contains(head.status) {
            let tried = head.status == 401 ? HopLogin.refused(at: currentURL, links: links, netrc: netrc) : nil
            failure = head.statusError(host: host).refusing(tried, host: URLValidation.host(of: currentURL))
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
            if case .segment = purpose { return true }
        }
        return false
    }

    /// What to do with `count` body bytes, before the stream's memory bound and budgets are asked.
    enum BodyCheck {
        /// Read through: a redirect's own page.
        case skip
        /// Refused: the fetch ends (its failure says why).
        case refuse
        case take
    }

    func check(bodyOf count: Int) -> BodyCheck {
        guard failure == nil else { return .refuse }
        // A redirect's own page: the next hop's answer is the one that counts.
        if head.isComplete, head.isFollowedRedirect { return .skip }
        guard head.isComplete else {
            failure = .invalidResponse(host: host, detail: "body data arrived before a complete response head")
            return .refuse
        }
        guard body.count + count <= limit else {
            failure = .invalidResponse(host: host, detail: "more than \(limitText) for one stream part")
            return .refuse
        }
        return .take
    }

    /// Stopped to keep the stream within its memory bound: asked again later.
    func markShed() { shed = true }

    func append(_ bytes: UnsafeRawBufferPointer) {
        body.append(contentsOf: bytes)
        bytesSinceTick += Int64(bytes.count)
    }
}

extension StreamFetch.Purpose {
    /// Whether it fetches media or a key, not a playlist.
    var isSegmentOrPart: Bool {
        switch self {
        case .playlist, .audioPlaylist, .freshLinks, .liveReload, .subtitlePlaylist: false
        case .key, .initSection, .segment, .segmentIndex, .subtitleSegment: true
        }
    }
}
