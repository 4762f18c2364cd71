import HaulCore

/// What libcurl hands a stream from inside `curl_multi_perform`, for each of its fetches (found by its handle), and
/// how each fetch's request is set up. A callback only takes what happened: segments that now fit are started by
/// the engine loop (`advance`).
extension StreamTransfer: CurlReceiver {
    /// The open fetch of `easy`.
    func fetch(of easy: CurlEasy) -> StreamFetch? {
        fetches.first { $0.easy === easy }
    }

    /// Sets `fetch`'s handle up for its request (again, for a redirect's next hop); its callbacks come here.
    func configure(_ fetch: StreamFetch) throws(CurlError) {
        var setup = ConnectionRequest.make(
            role: fetch.range == nil ? .first : .range, request: request, url: fetch.currentURL,
            requested: fetch.range ?? 0..<Int64.max, validators: RemoteValidators(), fresh: false, netrc: netrc)
        // Segments ask for the whole resource or one range each, never a resumed one: a first request at 0.
        setup.http11Only = true
        setup.publicOnly = publicOrigin
        try apply(setup, to: fetch, taskConnections: targetConnections)
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        guard let fetch = fetch(of: easy) else { return 0 }
        if fetch.takeHeaderLine(bytes, links: request.links, netrc: netrc) { segmentAnnounced() }
        return bytes.count
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        guard let fetch = fetch(of: easy) else { return 0 }
        switch fetch.check(bodyOf: bytes.count) {
        case .skip: return bytes.count
        case .refuse: return 0
        case .take: break
        }
        if fetch.head.contentLength == nil, mustShed(fetch, receiving: bytes.count) {
            fetch.markShed()
            return 0
        }
        // Over budget: libcurl keeps the bytes and hands them again once the budget resumes us.
        guard budget.mayReceive(fetch, taskConnections: targetConnections) else { return CurlEasy.pauseReading }
        fetch.append(bytes)
        budget.took(bytes.count, for: fetch)
        return bytes.count
    }
}
