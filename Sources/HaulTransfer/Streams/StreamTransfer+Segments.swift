import HaulCore

/// The segments of a stream: fetches within each track's window, retries of one segment alone, decryption, and
/// appending in playlist order.
extension StreamTransfer {
    /// Starts what can start now, or says the transfer ends: keys and init sections the windows need first,
    /// then segments over the free connections (to the track furthest behind), within the memory bound.
    func pump() -> TransferNext {
        if case let .failed(error) = phase { return .conclude(.failed(error)) }
        guard !tracks.isEmpty else { return .keepGoing }
        // A live track is complete once it ended and every segment it took is in.
        pumpSubtitles()
        if tracks.allSatisfy({ $0.window.isComplete && $0.live?.ended != false }), subtitles.allSatisfy(\.isDone) {
            // A recording with nothing in it is no file: it fails, saying why it ended.
            if isLive, tracks.allSatisfy({ $0.segmentBase == 0 && $0.position == 0 }) {
                return .conclude(.failed(.playlist(PlaylistError(line: nil, .liveNothingRecorded(info?.live?.ended ?? "it ended")))))
            }
            return .conclude(.complete)
        }
        var missing = false
        for track in tracks {
            for index in track.window.appended..<min(track.window.count, track.window.appended + track.window.span) {
                let segment = track.media.segments[index]
                if let key = segment.key, keys[key.uri] == nil {
                    missing = true
                    fetchOnce(.key(key.uri), url: key.uri, range: nil, limit: Self.keyLimit)
                }
                if let section = segment.initSection, inits[section] == nil {
                    missing = true
                    fetchOnce(.initSection(section), url: section.uri, range: section.byteRange, limit: Self.initLimit)
                }
                if let key = segment.initSection?.key, keys[key.uri] == nil {
                    missing = true
                    fetchOnce(.key(key.uri), url: key.uri, range: nil, limit: Self.keyLimit)
                }
            }
        }
        if missing { return .keepGoing }
        let running = fetches.count { if case .segment = $0.purpose { true } else { false } }
        var free = max(0, targetConnections - running)
        // Extra connections only where the host has room.
        if running > 0 { free = min(free, hosts.room(for: URLValidation.host(of: tracks[0].media.segments[0].uri))) }
        // Never past the memory bound: the segments seen so far tell how many more fit, so large segments run on
        // fewer connections; before any size is seen, one goes alone. One always may when none runs.
        let fit = segmentSizeSeen.map { max(0, memoryBound - committedBytes) / $0 } ?? 0
        free = min(free, max(running == 0 ? 1 : 0, fit))
        while free > 0 {
            // The track furthest behind in media time goes first, so audio and video keep pace.
            var started = false
            for number in tracks.indices.sorted(by: { tracks[$0].doneSeconds < tracks[$1].doneSeconds }) {
                // Its links are being renewed: nothing starts on a link that is known to be stale.
                guard !tracks[number].refreshing, let index = tracks[number].window.take(free: 1).first else { continue }
                let segment = tracks[number].media.segments[index]
                let fetch = StreamFetch(
                    purpose: .segment(track: number, index: index), url: segment.uri, range: segment.byteRange,
                    limit: Self.segmentLimit, task: request.id)
                fetch.linkGeneration = tracks[number].linkGeneration
                add(fetch)
                started = true
                break
            }
            guard started else { break }
            free -= 1
        }
        return .keepGoing
    }

    /// A segment's answer said its size (inside a libcurl callback): fetches that now fit are made by the engine
    /// loop after the callback (`advance`).
    func segmentAnnounced() {
        guard case .receiving = phase else { return }
        sizeAnnounced = true
    }

    private func fetchOnce(_ purpose: StreamFetch.Purpose, url: String, range: Range<Int64>?, limit: Int) {
        guard !fetches.contains(where: { $0.purpose == purpose }) else { return }
        add(StreamFetch(purpose: purpose, url: url, range: range, limit: limit, task: request.id))
    }

    /// A fetch left the network as `result`; says what comes next.
    func ended(_ fetch: StreamFetch, result: CurlResult) -> TransferNext {
        forget(fetch)
        if case .failed = phase { return pump() }
        let outcome = fetch.outcome(result, stallTimeout: request.options.stallTimeout, proxies: request.requestOptions.proxies)
        switch fetch.purpose {
        case .subtitlePlaylist, .subtitleSegment:
            subtitleEnded(fetch.purpose, outcome, from: fetch.easy.effectiveURL ?? fetch.url)
            return pump()
        default: break
        }
        switch (outcome, fetch.purpose) {
        case let (.success(body), .playlist), let (.success(body), .audioPlaylist):
            if fetch.purpose == .playlist(depth: 0), fetch.easy.primaryAddress.flatMap(AddressReach.init(address:)) == .publicNetwork {
                publicOrigin = true
            }
            received(playlist: body, from: fetch.easy.effectiveURL ?? fetch.url, purpose: fetch.purpose)
        case let (.success(body), .key(uri)):
            guard body.count == 16 else {
                fail(.streamPart(keyLabel(uri), .invalidResponse(host: fetch.host, detail: "the key is \(body.count) bytes, not 16")))
                break
            }
            keys[uri] = body
        case let (.success(body), .initSection(section)):
            inits[section] = body
        case let (.success(body), .segmentIndex(request)):
            received(index: body, for: request)
        case let (.failure(error), .segmentIndex):
            fail(.streamPart("segment index", error))
        case let (.success(body), .segment(number, index)):
            arrived(tracks[number], number, index, body)
        case let (.success(body), .freshLinks(number)):
            receivedLinks(body, from: fetch.easy.effectiveURL ?? fetch.url, track: number)
        case let (.success(body), .liveReload(number)):
            reloaded(body, from: fetch.easy.effectiveURL ?? fetch.url, track: number)
        case let (.failure(error), .liveReload(number)):
            reloadFailed(track: number, error)
        case let (.failure(error), .freshLinks(number)):
            // The playlist itself failed: its error as it is, so that an expired link runs `--on-link-expired`.
            tracks[number].refreshing = false
            fail(error)
        case let (.failure(error), .playlist), let (.failure(error), .audioPlaylist):
            fail(error)
        case let (.failure(error), .key(uri)):
            fail(.streamPart(keyLabel(uri), error))
        case let (.failure(error), .initSection(section)):
            let first = tracks.first?.media.segments.firstIndex { $0.initSection == section } ?? 0
            fail(.streamPart("init section for segment \(first)", error))
        case (_, .subtitlePlaylist), (_, .subtitleSegment):
            break
        case let (.failure(error), .segment(number, index)):
            if fetch.shed {
                shedSize = max(shedSize, fetch.bodyCount)
                tracks[number].window.failed(index)
            } else if tracks[number].live != nil, let code = error.httpCode, LinkRenewal.expiredStatuses.contains(code) {
                segmentLeftWindow(tracks[number], index)
            } else if let code = error.httpCode, LinkRenewal.expiredStatuses.contains(code) {
                linkRefused(tracks[number], number, index, generation: fetch.linkGeneration, error)
            } else {
                segmentFailed(tracks[number], number, index, error)
            }
        }
        return pump()
    }

    /// Whether `fetch`, a segment of unknown length about to take `count` more bytes, must stop: the stream's
    /// buffers would pass the memory bound and an earlier segment is still arriving. The earliest one always
    /// goes on (up to the segment limit), so the stream advances and its memory stays within the bound and one
    /// segment; the others are asked again once there is room.
    func mustShed(_ fetch: StreamFetch, receiving count: Int) -> Bool {
        guard case let .segment(number, index) = fetch.purpose, bufferedBytes + count > memoryBound else { return false }
        return fetches.contains { other in
            guard other !== fetch, case let .segment(otherNumber, otherIndex) = other.purpose else { return false }
            return tracks[otherNumber].doneSeconds < tracks[number].doneSeconds
                || (otherNumber == number && otherIndex < index)
        }
    }

    private func keyLabel(_ uri: String) -> String {
        "key for segment \(tracks.first?.media.segments.firstIndex { $0.key?.uri == uri } ?? 0)"
    }

    /// "segment 12 (line 40)", "audio segment 3 (line 12)".
    func label(_ track: Int, _ index: Int) -> String {
        (track == 0 ? "" : "audio ") + "segment \(index) (line \(tracks[track].media.segments[index].line))"
    }

    /// Segment `index` arrived whole: decrypted, held, and appended with every one now in order.
    private func arrived(_ track: StreamTrack, _ number: Int, _ index: Int, _ raw: [UInt8]) {
        var clear = raw
        if let key = track.media.segments[index].key {
            guard let keyBytes = keys[key.uri] else { return fail(.inconsistentTransfer("segment \(index) arrived before its key")) }
            do {
                clear = try SegmentDecryptor.decrypt(raw, key: keyBytes, iv: key.iv)
            } catch {
                return fail(.undecryptable((number == 0 ? "" : "audio ") + "segment \(index)"))
            }
        }
        track.failures[index] = nil
        track.held[index] = clear
        for next in track.window.fetched(index, bytes: clear.count) { append(next, of: track) }
    }

    /// Writes segment `index` (after its init section when it changes there) at the end of the track's part file.
    /// A live segment that left the window is appended as nothing (`StreamTransfer+Live`); the first of a resumed
    /// live recording goes on from the init section its part file holds.
    func append(_ index: Int, of track: StreamTrack) {
        guard let writer = track.writer, let bytes = track.held.removeValue(forKey: index) else { return }
        let segment = track.media.segments[index]
        let missing = track.live?.missing.contains(index) == true
        let resumesLive = index == 0 && track.segmentBase > 0
        do throws(DownloadError) {
            if !missing, !resumesLive, let section = segment.initSection,
               index == 0 || track.media.segments[index - 1].initSection != section {
                guard let prefix = inits[section] else { throw .inconsistentTransfer("segment \(index) without its init section") }
                try write(try clearInit(prefix, section, before: index), to: writer, of: track)
            }
            try write(bytes, to: writer, of: track)
        } catch {
            return fail(error)
        }
        track.window.didAppend(index)
        if !missing { track.doneSeconds += segment.duration }
        track.appendLog.append((track.segmentBase + index + 1, track.position, track.doneSeconds, segment.sequence))
    }

    /// An init section's clear bytes: decrypted with the key in force where its `EXT-X-MAP` stands, if any.
    private func clearInit(_ bytes: [UInt8], _ section: InitSection, before index: Int) throws(DownloadError) -> [UInt8] {
        guard let key = section.key else { return bytes }
        guard let keyBytes = keys[key.uri] else { throw .inconsistentTransfer("init section for segment \(index) before its key") }
        do {
            return try SegmentDecryptor.decrypt(bytes, key: keyBytes, iv: key.iv)
        } catch {
            throw .undecryptable("init section for segment \(index)")
        }
    }

    private func write(_ bytes: [UInt8], to writer: FileWriter, of track: StreamTrack) throws(DownloadError) {
        guard !bytes.isEmpty else { return }
        let offset = track.position
        let failure: DownloadError? = bytes.withUnsafeBytes { buffer in
            do throws(DownloadError) {
                try writer.write(buffer, at: offset)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        track.position += Int64(bytes.count)
        if bookkeeping.wroteCheckingSpace(bytes.count) { try directory.checkFreeSpace(for: request, needed: nil) }
    }

    /// A segment failed: a transient failure is asked again alone after a back-off (or `Retry-After`), until
    /// `--retries`; anything else fails the task naming the segment.
    private func segmentFailed(_ track: StreamTrack, _ number: Int, _ index: Int, _ error: DownloadError) {
        guard error.isTransient else { return fail(.streamPart(label(number, index), error)) }
        let count = (track.failures[index] ?? 0) + 1
        track.failures[index] = count
        guard count <= request.options.segmentRetries else { return fail(.streamPart(label(number, index), error)) }
        let delay = RetryPolicy(maxRetries: request.options.segmentRetries, baseDelay: 1, maxDelay: 30)
            .delay(attempt: count, retryAfter: error.retryAfter)
        track.retryAt[index] = .now + .seconds(within: 3600, delay)
    }

    /// Segments whose back-off is over are asked again; says what comes next.
    func tick(now: ContinuousClock.Instant) -> TransferNext {
        var due = false
        for track in tracks {
            for (index, instant) in track.retryAt where instant <= now {
                track.retryAt[index] = nil
                track.window.failed(index)
                due = true
            }
        }
        return due ? pump() : .keepGoing
    }

    /// The largest segment appended or announced so far (at least 1 MiB), for the memory bound; nil before any.
    var segmentSizeSeen: Int? {
        let appended = tracks.map { $0.window.appended > 0 ? Int($0.position) / $0.window.appended : 0 }.max() ?? 0
        let announced = fetches.compactMap { fetch in
            if case .segment = fetch.purpose { fetch.announcedBytes } else { nil }
        }.max() ?? 0
        let largest = max(appended, announced, shedSize)
        return largest > 0 ? max(largest, 1 << 20) : nil
    }

    /// Memory the stream holds or will once its fetches finish: held segments, and each body at its announced size
    /// (`reservedBytes`).
    var committedBytes: Int {
        let sizeSeen = segmentSizeSeen
        return tracks.reduce(0) { $0 + $1.window.heldBytes } + fetches.reduce(0) { total, fetch in
            let (sum, overflow) = total.addingReportingOverflow(
                Self.reservedBytes(received: fetch.bodyCount, announced: fetch.announcedBytes, sizeSeen: sizeSeen))
            return overflow ? .max : sum
        }
    }

    /// What one fetch counts against the memory bound: its announced size, else (a body of unknown length, chunked
    /// or until the connection closes) at least the largest segment seen, and never less than it holds.
    static func reservedBytes(received: Int, announced: Int?, sizeSeen: Int?) -> Int {
        max(received, announced ?? sizeSeen ?? 0)
    }

    /// Bytes fetched and not yet appended: held segments and the bodies still arriving.
    var bufferedBytes: Int {
        tracks.reduce(0) { $0 + $1.window.heldBytes } + fetches.reduce(0) { $0 + $1.bodyCount }
    }
}
