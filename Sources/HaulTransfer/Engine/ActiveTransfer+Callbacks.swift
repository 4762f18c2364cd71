import HaulCore

/// What libcurl hands a file transfer from inside `curl_multi_perform`, for each of its connections (found by its
/// handle), and how each connection's request is set up. A callback only takes what happened: decisions that open
/// connections wait for the engine loop (`advance`).
extension ActiveTransfer: CurlReceiver {
    /// The open connection of `easy`.
    func connection(of easy: CurlEasy) -> Connection? {
        connections.first { $0.easy === easy }
    }

    /// Sets `connection`'s handle up for its request (again, for a redirect's next hop); its callbacks come here.
    func configure(_ connection: Connection) throws(CurlError) {
        let setup = ConnectionRequest.make(
            role: connection.role, request: request, url: connection.currentURL, requested: connection.requested,
            validators: ifRangeValidators(for: connection), fresh: connection.fresh, netrc: netrc)
        try apply(setup, to: connection, taskConnections: expectedConnections)
    }

    /// How libcurl let go of `connection`, in the engine's terms.
    func exit(of connection: Connection, _ result: CurlResult) -> ConnectionExit {
        connection.exit(result, stallTimeout: request.options.stallTimeout, proxies: request.requestOptions.proxies)
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        guard let connection = connection(of: easy) else { return 0 }
        if connection.head.feed(bytes: bytes), !connection.head.isInformational, !connection.head.isFollowedRedirect {
            if connection.head.status == 401 { noteRefusedLogin(on: connection) }
            accept(connection.head, on: connection)
        }
        return bytes.count
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer, from easy: CurlEasy) -> Int {
        guard let connection = connection(of: easy) else { return 0 }
        // A redirect's own page: the next hop's answer is the one that counts.
        if connection.head.isComplete, connection.head.isFollowedRedirect { return bytes.count }
        switch connection.state {
        case .receiving:
            // The first answer allows splitting: its bytes wait until the engine loop has planned the ranges.
            if connection === splitFrom { return CurlEasy.pauseReading }
            // Over budget: libcurl keeps the bytes and hands them again once the budget resumes us.
            guard budget.mayReceive(connection, taskConnections: expectedConnections) else { return CurlEasy.pauseReading }
            // At its cut while the range taken from it has no answer yet: wait for it (`releaseHold`).
            if !connection.holdSpent, holdsAtCut(connection, incoming: bytes.count) {
                if connection.heldSince == nil { connection.heldSince = .now }
                return CurlEasy.pauseReading
            }
            let taken = write(bytes, from: connection)
            budget.took(taken, for: connection)
            return taken
        case .awaitingResponse:
            connection.state = .failed(.invalidResponse(host: host, detail: "body data arrived before a complete response head"))
            return 0
        case .reachedEnd, .failed, .fileChanged, .rangesIgnored:
            // A 416's small body, or the rest of a range this connection no longer fetches.
            return isAlreadyComplete ? bytes.count : 0
        }
    }
}
