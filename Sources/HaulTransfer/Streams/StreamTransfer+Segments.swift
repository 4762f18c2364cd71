import HaulCore

/// The segments of a stream: the part file opened (or continued when the playlist still matches), fetches
/// within the window, retries of one segment alone, decryption, and appending in playlist order.
extension StreamTransfer {
    /// The media playlist is known: open the part file and fetch from the first segment not appended.
    func start(_ media: MediaPlaylist) {
        var info = StreamInfo(
            fingerprint: StreamFingerprint(media), segmentCount: media.segments.count, durationSeconds: media.duration,
            variant: chosen.map(Self.describe), variantKey: chosen.map(Self.key(of:)),
            encryption: media.isEncrypted ? "AES-128" : nil, container: media.isFragmentedMP4 ? "mp4" : "ts")
        info.note = audioNote
        var restartReason: String?
        if let stored = request.stream, stored.segmentsDone > 0 {
            if let mismatch = stored.fingerprint.mismatch(info.fingerprint) {
                restartReason = "the playlist changed: \(mismatch)"
            } else {
                info.segmentsDone = stored.segmentsDone
                info.appendedBytes = stored.appendedBytes
                info.doneSeconds = stored.doneSeconds
            }
        }
        let name: String
        do throws(DownloadError) {
            if let error = DiskGuard.freeSpaceError(
                free: directory.freeBytes(), reserve: request.options.diskReserve, needed: nil, directory: request.directory) {
                throw error
            }
            if request.stream != nil, let stored = request.fileName {
                name = stored
                let writer = try directory.openPart(of: name)
                hold(writer, name: name)
                if info.segmentsDone > 0, try writer.size() < info.appendedBytes {
                    restartReason = "the part file is shorter than the \(info.appendedBytes) bytes recorded"
                    info.restart()
                }
                try writer.truncate(to: info.appendedBytes)
            } else {
                let wanted = StreamFileName.choose(requested: request.requestedName, url: request.url, container: info.container)
                let (reserved, writer) = try directory.reservePart(
                    for: wanted, inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere,
                    replacing: request.requestOptions.allowOverwrite == true)
                hold(writer, name: reserved)
                name = reserved
            }
        } catch {
            return fail(error)
        }
        if restartReason != nil { info.restart() }
        position = info.appendedBytes
        durable = position
        doneSeconds = info.doneSeconds
        self.media = media
        self.info = info
        let span = max(2 * request.options.split, 8)
        window = StreamWindow(count: media.segments.count, appended: info.segmentsDone, span: span)
        phase = .receiving
        emit(.responded(request.id, ResponseSummary(
            fileName: name, totalBytes: info.estimatedTotal(bandwidth: bandwidth), validators: RemoteValidators(),
            offset: position, restartReason: restartReason, httpStatus: 200)))
        emit(.streamResolved(request.id, info, fileName: name, bandwidth: bandwidth))
    }

    private func hold(_ writer: FileWriter, name: String) {
        fileName = name
        self.writer = writer
        partsInUse.paths.insert(writer.path)
    }

    /// Starts what can start now, or says the transfer ends: keys and init sections the window needs first,
    /// then segments over the free connections, within the window and the memory bound.
    func pump() -> TransferNext {
        if case let .failed(error) = phase { return .conclude(.failed(error)) }
        guard var window, let media else { return .keepGoing }
        if window.isComplete { return .conclude(.complete) }
        var missing = false
        for index in window.appended..<min(window.count, window.appended + window.span) {
            let segment = media.segments[index]
            if let key = segment.key, keys[key.uri] == nil {
                missing = true
                fetchOnce(.key(key.uri), url: key.uri, range: nil, limit: Self.keyLimit)
            }
            if let section = segment.initSection, inits[section] == nil {
                missing = true
                fetchOnce(.initSection(section), url: section.uri, range: section.byteRange, limit: Self.initLimit)
            }
        }
        if missing { return .keepGoing }
        let running = fetches.count { if case .segment = $0.purpose { true } else { false } }
        var free = max(0, targetConnections - running)
        if running > 0 {
            // Extra connections only where the host has room, and never past the memory bound.
            free = min(free, hosts.room(for: URLValidation.host(of: media.segments[window.appended].uri)))
            if bufferedBytes >= Self.memoryBound { free = 0 }
        }
        for index in window.take(free: free) {
            let segment = media.segments[index]
            add(StreamFetch(purpose: .segment(index), url: segment.uri, range: segment.byteRange, limit: Self.segmentLimit, stream: self))
        }
        self.window = window
        return .keepGoing
    }

    private func fetchOnce(_ purpose: StreamFetch.Purpose, url: String, range: Range<Int64>?, limit: Int) {
        guard !fetches.contains(where: { $0.purpose == purpose }) else { return }
        add(StreamFetch(purpose: purpose, url: url, range: range, limit: limit, stream: self))
    }

    /// A fetch left the network as `result`; says what comes next.
    func ended(_ fetch: StreamFetch, result: CurlResult) -> TransferNext {
        forget(fetch)
        if case .failed = phase { return pump() }
        switch (fetch.outcome(result), fetch.purpose) {
        case let (.success(body), .playlist(depth)):
            received(playlist: body, from: fetch.easy.effectiveURL ?? fetch.url, depth: depth)
        case let (.success(body), .key(uri)):
            guard body.count == 16 else {
                fail(.streamPart(keyLabel(uri), .invalidResponse(host: fetch.host, detail: "the key is \(body.count) bytes, not 16")))
                break
            }
            keys[uri] = body
        case let (.success(body), .initSection(section)):
            inits[section] = body
        case let (.success(body), .segment(index)):
            arrived(index, body)
        case let (.failure(error), .playlist):
            fail(error)
        case let (.failure(error), .key(uri)):
            fail(.streamPart(keyLabel(uri), error))
        case let (.failure(error), .initSection(section)):
            let first = media?.segments.firstIndex { $0.initSection == section } ?? 0
            fail(.streamPart("init section for segment \(first)", error))
        case let (.failure(error), .segment(index)):
            segmentFailed(index, error)
        }
        return pump()
    }

    private func keyLabel(_ uri: String) -> String {
        "key for segment \(media?.segments.firstIndex { $0.key?.uri == uri } ?? 0)"
    }

    func label(_ index: Int) -> String { "segment \(index) (line \(media?.segments[index].line ?? 0))" }

    /// Segment `index` arrived whole: decrypted, held, and appended with every one now in order.
    private func arrived(_ index: Int, _ raw: [UInt8]) {
        guard let media, var window else { return }
        var clear = raw
        if let key = media.segments[index].key {
            guard let keyBytes = keys[key.uri] else { return fail(.inconsistentTransfer("segment \(index) arrived before its key")) }
            do {
                clear = try SegmentDecryptor.decrypt(raw, key: keyBytes, iv: key.iv)
            } catch {
                return fail(.undecryptable("segment \(index)"))
            }
        }
        failures[index] = nil
        held[index] = clear
        let ready = window.fetched(index, bytes: clear.count)
        self.window = window
        for next in ready { append(next) }
    }

    /// Writes segment `index` (after its init section when it changes there) at the end of the part file.
    private func append(_ index: Int) {
        guard let media, let writer, let bytes = held.removeValue(forKey: index) else { return }
        let segment = media.segments[index]
        do throws(DownloadError) {
            if let section = segment.initSection, index == 0 || media.segments[index - 1].initSection != section {
                guard let prefix = inits[section] else { throw .inconsistentTransfer("segment \(index) without its init section") }
                try write(prefix, to: writer)
            }
            try write(bytes, to: writer)
        } catch {
            return fail(error)
        }
        window?.didAppend(index)
        doneSeconds += segment.duration
        appendLog.append((index + 1, position, doneSeconds))
    }

    private func write(_ bytes: [UInt8], to writer: FileWriter) throws(DownloadError) {
        guard !bytes.isEmpty else { return }
        let offset = position
        let failure: DownloadError? = bytes.withUnsafeBytes { buffer in
            do throws(DownloadError) {
                try writer.write(buffer, at: offset)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        position += Int64(bytes.count)
    }

    /// A segment failed: a transient failure is asked again alone after a back-off (or `Retry-After`), until
    /// `--retries`; anything else fails the task naming the segment.
    private func segmentFailed(_ index: Int, _ error: DownloadError) {
        guard error.isTransient else { return fail(.streamPart(label(index), error)) }
        let count = (failures[index] ?? 0) + 1
        failures[index] = count
        guard count <= request.options.segmentRetries else { return fail(.streamPart(label(index), error)) }
        let delay = RetryPolicy(maxRetries: request.options.segmentRetries, baseDelay: 1, maxDelay: 30)
            .delay(attempt: count, retryAfter: error.retryAfter)
        retryAt[index] = .now + .seconds(within: 3600, delay)
    }

    /// Segments whose back-off is over are asked again; says what comes next.
    func tick(now: ContinuousClock.Instant) -> TransferNext {
        let due = retryAt.filter { $0.value <= now }.map(\.key)
        guard !due.isEmpty else { return .keepGoing }
        for index in due {
            retryAt[index] = nil
            window?.failed(index)
        }
        return pump()
    }

    /// Bytes fetched and not yet appended: held segments and the bodies still arriving.
    var bufferedBytes: Int {
        held.values.reduce(0) { $0 + $1.count } + fetches.reduce(0) { $0 + $1.bodyCount }
    }
}
