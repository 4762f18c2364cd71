/// Serves the requests of one accepted connection on its own thread, injecting the plan's faults.
struct Connection {
    /// Largest body slice generated and sent at once.
    static let chunkSize = 256 * 1024

    let fd: Int32
    /// This connection's number in accept order (1 = the first since the server started).
    let serial: Int
    let core: ServerCore

    /// Answers requests until the peer closes, a fault ends the connection, or the server stops.
    func run() {
        var reader = RequestReader(fd: fd, stopFD: core.stopFD)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 8)
        defer { buffer.deallocate() }
        // The per-connection cap lives as long as the connection, across keep-alive requests.
        var bucket: ConnectionBucket?
        while let request = reader.next() {
            guard respond(to: request, bucket: &bucket, buffer: buffer), !core.isStopping else { return }
        }
    }

    /// Sends one response; false when the connection must close afterwards.
    private func respond(
        to request: HTTPRequest, bucket: inout ConnectionBucket?, buffer: UnsafeMutableRawBufferPointer
    ) -> Bool {
        let path = ServerCore.statsKey(request.routeKey)
        let response: PlannedResponse
        var plan: FaultPlan?
        switch core.lookUp(request, connection: serial) {
        case .notFound:
            response = .page(404)
        case .badQuery(let usage):
            response = .page(400, note: "<pre>\(usage)</pre>")
        case .stats(let text):
            response = .text(text)
        case .plan(let found, let requestNumber, let connectionOrder, let extraNumber):
            plan = found
            response = ResponsePlanner.respond(
                to: request, plan: found, requestNumber: requestNumber, extraNumber: extraNumber)
            if let rate = found.connectionRate(forConnection: connectionOrder) {
                if bucket == nil { bucket = ConnectionBucket(rate: rate) }
                bucket?.rate = rate
            }
        }
        if let delay = plan?.headerDelay {
            guard core.pause(for: delay) else { return false }
        }
        core.recordStatus(response.status, path: path)
        let keepAlive = request.keepAlive
        guard Socket.sendAll(fd, response.encodedHead(closing: !keepAlive)) else { return false }
        if plan != nil { core.recordHeadSent(path: path, connection: serial) }
        guard !request.isHead else { return keepAlive }

        switch response.payload {
        case .page(let bytes):
            let sent = bytes.withUnsafeBytes { Socket.sendAll(fd, $0) }
            core.addBodyBytes(sent, path: path)
            return keepAlive && sent == bytes.count
        case .content(let body, let range, let version, let chunked):
            let complete = sendContent(
                body, range: range, version: version, chunked: chunked, plan: plan!, bodyFault: response.bodyFault,
                path: path, bucket: &bucket, buffer: buffer)
            return keepAlive && complete
        }
    }

    /// Streams a content slice with the plan's throttle, connection cap, drop, stall and short-body faults,
    /// and the body fault this one response carries (`bodyFault`, already counted: it always applies).
    /// Returns false when the body was cut off (the connection must then close).
    private func sendContent(
        _ body: FaultPlan.Body, range: Range<Int64>, version: Int, chunked: Bool, plan: FaultPlan,
        bodyFault: PlannedResponse.BodyFault?, path: String, bucket: inout ConnectionBucket?,
        buffer: UnsafeMutableRawBufferPointer
    ) -> Bool {
        let length = Int64(range.count)
        var shortBy = plan.shortBy ?? 0
        if case .short(let count)? = bodyFault { shortBy = count }
        let toSend = length - min(max(shortBy, 0), length)
        // A drop or stall point counts only if this response would go past it.
        var dropAt = plan.dropAfter.flatMap { $0 >= 0 && $0 < length ? $0 : nil }
        var stallAt = plan.stallAfter.flatMap { $0 >= 0 && $0 < length ? $0 : nil }
        var ownStall = false
        if case .stall(let point)? = bodyFault, point >= 0, point < length {
            stallAt = point
            ownStall = true
        }
        let rate = plan.throttle.flatMap { $0 > 0 ? Int64($0) : nil }
        var pace = rate.map { max(1, min(Int64(Self.chunkSize), $0 / 20)) } ?? Int64(Self.chunkSize)
        let capped = plan.connectionRates != nil && bucket != nil
        if capped, let bucket { pace = min(pace, Int64(bucket.sliceSize)) }
        var capRecord = capped ? bucket.map { CappedResponse(rate: $0.rate) } : nil
        defer { if let capRecord { core.recordCapped(capRecord, path: path) } }
        let started = ContinuousClock.now
        var sent: Int64 = 0

        while true {
            if let point = dropAt, sent == point {
                if core.claimDrop(path: path, limit: plan.dropTimes) { return false }
                dropAt = nil
            }
            if let point = stallAt, sent == point {
                if ownStall || core.claimStall(path: path, limit: plan.stallTimes) {
                    stayQuiet()
                    return false
                }
                stallAt = nil
            }
            if sent >= toSend { break }

            var limit = toSend
            if let point = dropAt { limit = min(limit, point) }
            if let point = stallAt { limit = min(limit, point) }
            let count = Int(min(pace, limit - sent))
            if let rate {
                // Send a chunk only once the rate has earned it, so the body takes size / rate overall.
                let due = started + .milliseconds((sent + Int64(count)) * 1000 / rate)
                guard core.pause(until: due) else { return false }
            }
            if capped {
                // The connection's bucket: the bytes go once it has earned them (it never refills past its burst).
                let now = ContinuousClock.now
                guard let due = bucket?.take(count, now: now) else { return false }
                capRecord?.note(slice: count, waited: due > now)
                guard core.pause(until: due) else { return false }
            }
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            body.fill(slice, from: range.lowerBound + sent, version: version)
            let written: Int
            if chunked {
                guard Socket.sendAll(fd, Array((String(count, radix: 16) + "\r\n").utf8)) else { return false }
                written = Socket.sendAll(fd, UnsafeRawBufferPointer(slice))
                guard written == count, Socket.sendAll(fd, [13, 10]) else {
                    core.addBodyBytes(written, path: path)
                    return false
                }
            } else {
                written = Socket.sendAll(fd, UnsafeRawBufferPointer(slice))
            }
            core.addBodyBytes(written, path: path)
            sent += Int64(written)
            if written < count { return false }
        }
        if toSend < length { return false }
        if chunked { return Socket.sendAll(fd, Array("0\r\n\r\n".utf8)) }
        return true
    }

    /// Keeps the socket open and silent until the peer hangs up or sends anything, or the server stops.
    private func stayQuiet() {
        _ = Socket.waitReadable([fd, core.stopFD], timeoutMilliseconds: -1)
    }
}
