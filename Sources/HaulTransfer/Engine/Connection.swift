import HaulCore

/// One HTTP connection of a download: its easy handle, the response head, and where its bytes go.
///
/// The first connection of a task asks for the file (or its rest, to resume) and decides its name and
/// validators; a segmented download adds connections that each fetch one bounded range. Confined to the
/// transfer thread; libcurl reaches it through an unretained pointer that its transfer keeps alive until
/// the handle has left the multi handle.
final class Connection: CurlReceiver, PacedConnection {
    enum Role: Equatable {
        /// The task's first request: its answer decides name, total and validators.
        case first
        /// A bounded range request of a segmented download.
        case range
    }

    enum State: Equatable {
        case awaitingResponse
        case receiving
        /// The connection fetched all it was meant to (its lease's end was reached).
        case reachedEnd
        /// It must end for this reason; for a `.range` connection the task may go on without it.
        case failed(DownloadError)
        /// Its answer says the file changed: the whole download starts over.
        case fileChanged(String)
        /// A full 200 to a range request: the server does not answer ranges.
        case rangesIgnored
    }

    let role: Role
    let easy = CurlEasy()
    unowned let transfer: ActiveTransfer
    /// The link it asks: the task's main link or a mirror.
    let link: TransferLink
    var head = ResponseHead()
    var state = State.awaitingResponse
    /// The range this connection asks for; a `.first` connection asks for everything from its start.
    let requested: Range<Int64>
    /// File offset of the next byte.
    var cursor: Int64
    /// Where it must stop (exclusive); nil for a single stream, which ends with the file.
    var end: Int64?
    /// The ledger lease it fetches, in a segmented download.
    var lease: SegmentLease.ID?
    /// Bytes written since the engine's last progress tick, and the smoothed rate from them.
    var bytesSinceTick: Int64 = 0
    var speed: Double = 0
    /// How long it has been receiving body bytes, by the engine's ticks.
    var receivingSeconds: Double = 0
    /// Asks for a new TCP connection instead of an idle one: it replaces a slow one (`SlowConnectionCheck`).
    var fresh = false
    /// The receive buffer a rate limit gave its socket (`BandwidthBudget`), nil while none did.
    var receiveBuffer: Int?
    /// Since when it waits at its cut for the answer to the range taken from it (`ActiveTransfer.holdsAtCut`).
    var heldSince: ContinuousClock.Instant?
    /// It waited at its cut as long as it may (`ActiveTransfer.endStaleHolds`): it stops there.
    var holdSpent = false
    /// The redirect target it asks now (the engine follows redirects itself, `RedirectHop`); nil for its own URL.
    private(set) var hop: String?
    /// Redirects followed so far.
    private(set) var hops = 0

    init(role: Role, transfer: ActiveTransfer, link: TransferLink, requested: Range<Int64>, lease: SegmentLease.ID?) {
        self.role = role
        self.transfer = transfer
        self.link = link
        self.requested = requested
        cursor = requested.lowerBound
        self.lease = lease
        end = lease == nil ? nil : requested.upperBound
    }

    /// The URL it asks now: its own, or the redirect target it follows.
    var currentURL: String { hop ?? transfer.url(for: self) }

    /// Sets the easy handle up for this connection's request; its callbacks come back here.
    func configure() throws(CurlError) {
        easy.receiver = self
        var request = ConnectionRequest.make(
            role: role, request: transfer.request, url: currentURL, requested: requested,
            validators: transfer.ifRangeValidators(for: self), fresh: fresh, netrc: transfer.netrc)
        // Under a limit a new socket starts with a small buffer: the server never sees a wide window.
        request.receiveBuffer = transfer.budget.receiveBuffer(for: self)
        receiveBuffer = request.receiveBuffer
        request.cookies = transfer.cookies.share
        request.cookieSeed = transfer.cookies.takeSeed()
        try easy.apply(request)
    }

    /// The next hop of a redirect after libcurl let go of it as `result`; nil when its answer stands (a redirect
    /// that is not followed becomes its failure).
    func nextHop(after result: CurlResult) -> String? {
        guard result.isOK, state == .awaitingResponse else { return nil }
        switch RedirectHop.next(head: head, target: easy.redirectURL, hops: hops, host: link.host) {
        case .answered: return nil
        case let .follow(url): return url
        case let .refused(error):
            state = .failed(error)
            return nil
        }
    }

    /// Sets the handle up again for the next hop `url` (taken off the multi handle first); the engine adds it back.
    func follow(_ url: String) throws(CurlError) {
        hop = url
        hops += 1
        head = ResponseHead()
        easy.reset()
        try configure()
    }

    /// How libcurl let go of it, with libcurl's error turned into the user's.
    func exit(_ result: CurlResult) -> ConnectionExit {
        guard !result.isOK else { return .completed }
        return .failed(DownloadError(
            curl: result, detail: easy.errorDetail, url: transfer.url(for: self), effectiveURL: easy.effectiveURL,
            host: link.host, responseSeen: head.status != 0, stallTimeout: transfer.request.options.stallTimeout,
            proxyStatus: easy.proxyConnectStatus,
            proxy: transfer.request.requestOptions.proxies?.redacted.proxy(for: currentURL)))
    }

    var pacedTask: TaskID { transfer.request.id }
    var taskConnections: Int { transfer.expectedConnections }

    /// The connection an easy handle belongs to.
    static func owner(of easy: CurlEasy) -> Connection? { easy.receiver as? Connection }

    /// Folds the bytes of the last `seconds` into the smoothed speed.
    func tick(seconds: Double) {
        guard seconds > 0 else { return }
        let sample = Double(bytesSinceTick) / seconds
        speed = speed == 0 ? sample : 0.7 * speed + 0.3 * sample
        bytesSinceTick = 0
        if state == .receiving { receivingSeconds += seconds }
    }

    /// Whether it asks a mirror for its sample (`OverlapSample`): a range connection without a lease, whose bytes
    /// are compared, never written.
    var isSample: Bool { role == .range && lease == nil }

    /// Bytes of its range still to fetch (0 for a single stream, which has no end of its own).
    var remaining: Int64 { max(0, (end ?? cursor) - cursor) }

    /// Whether it still fetches (not ended by a decision of its own).
    var isOpen: Bool { state == .awaitingResponse || state == .receiving }

    // MARK: - Callbacks (transfer thread, inside curl_multi_perform)

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        if head.feed(bytes: bytes), !head.isInformational, !head.isFollowedRedirect {
            if head.status == 401 { transfer.noteRefusedLogin(on: self) }
            transfer.accept(head, on: self)
        }
        return bytes.count
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // A redirect's own page: the next hop's answer is the one that counts.
        if head.isComplete, head.isFollowedRedirect { return bytes.count }
        switch state {
        case .receiving:
            // Over budget: libcurl keeps the bytes and hands them again once the budget resumes us.
            guard transfer.budget.mayReceive(self) else { return CurlEasy.pauseReading }
            // At its cut while the range taken from it has no answer yet: wait for it (`releaseHold`).
            if !holdSpent, transfer.holdsAtCut(self, incoming: bytes.count) {
                if heldSince == nil { heldSince = .now }
                return CurlEasy.pauseReading
            }
            let taken = transfer.write(bytes, from: self)
            transfer.budget.took(taken, for: self)
            return taken
        case .awaitingResponse:
            state = .failed(.invalidResponse(host: transfer.host, detail: "body data arrived before a complete response head"))
            return 0
        case .reachedEnd, .failed, .fileChanged, .rangesIgnored:
            // A 416's small body, or the rest of a range this connection no longer fetches.
            return transfer.isAlreadyComplete ? bytes.count : 0
        }
    }
}
