import HaulCore

/// A live HLS stream recorded as it plays (DESIGN §11, RFC 8216 §6.3): it joins the window near the live edge (or
/// right after the last segment an earlier run appended), reloads its playlists at the target duration, appends each
/// new segment once, and ends when the playlist does, at `--live-limit`, when the stream stops updating, or when
/// the user stops it. A segment that left the window before it was fetched is a gap: counted, never skipped silently.
extension StreamTransfer {
    /// The window of a live `media` playlist from where the recording joins it, the track's recording state, and the
    /// segments a resumed recording missed (a gap).
    func joinLive(_ media: MediaPlaylist, stored: StreamTrackInfo?, recorded: Double, now: ContinuousClock.Instant)
        -> (media: MediaPlaylist, live: LiveTrack, missed: Int64)
    {
        let (index, missed) = LiveRecording.join(media, after: stored?.lastSequence)
        var joined = media
        joined.segments = Array(media.segments[index...])
        let limit = LiveRecording.within(limit: liveLimit, recorded: recorded, joined.segments[...])
        let limited = limit < joined.segments.count
        joined.segments.removeLast(joined.segments.count - limit)
        var live = LiveTrack(
            lastSequence: joined.segments.last?.sequence ?? media.segments.last?.sequence ?? media.mediaSequence - 1,
            nextReload: now + .seconds(within: 3600, LiveRecording.reloadDelay(targetDuration: media.targetDuration, changed: true)),
            lastGrowth: now)
        if limited { live.ended = true }
        return (joined, live, missed)
    }

    /// `--live-limit` in seconds of media; nil for none.
    var liveLimit: Double? { request.requestOptions.liveLimit }

    /// Whether the stream is recorded live.
    var isLive: Bool { tracks.contains { $0.live != nil } }

    /// Reloads that are due, and the end of a stream that stopped updating; says whether anything started.
    func liveTick(now: ContinuousClock.Instant) -> Bool {
        guard case .receiving = phase else { return false }
        var changed = false
        for (number, track) in tracks.enumerated() {
            guard var live = track.live, !live.ended, !live.reloading, now >= live.nextReload else { continue }
            let stall = LiveRecording.stallSeconds(targetDuration: track.media.targetDuration)
            if now - live.lastGrowth >= .seconds(within: 3600, stall) {
                endRecording("the stream stopped: no new segment for \(Int(stall)) s")
                return true
            }
            guard let link = track.link else { continue }
            live.reloading = true
            track.live = live
            add(StreamFetch(purpose: .liveReload(track: number), url: link, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
            changed = true
        }
        return changed
    }

    /// The live track's playlist fetched again: the segments after the last one known are taken in (within the
    /// limit), a jump past segments never seen is a gap, and an end list ends the track.
    func reloaded(_ bytes: [UInt8], from url: String, track number: Int) {
        let track = tracks[number]
        guard var live = track.live else { return }
        live.reloading = false
        live.failedReloads = 0
        let now = ContinuousClock.now
        let fresh: MediaPlaylist
        do throws(PlaylistError) {
            guard let media = try manifestKind == .dash ? reloadedManifest(bytes, from: url, track: number) : reloadedPlaylist(bytes, from: url)
            else {
                track.live = live
                return endRecording("the live playlist no longer lists this track")
            }
            fresh = media
        } catch {
            track.live = live
            return endRecording("the live playlist could not be read (\(error))")
        }
        var (added, missed) = LiveRecording.added(fresh, after: live.lastSequence)
        let planned = track.baseSeconds + track.media.duration
        if missed > 0 { noteGap(missed, atSeconds: track.doneSeconds) }
        let taken = LiveRecording.within(limit: liveLimit, recorded: planned, added)
        let limited = taken < added.count || (liveLimit.map { planned >= $0 } ?? false)
        added = added.prefix(taken)
        if missed > 0, let first = added.first {
            // The segment after a gap starts a new run of timestamps.
            var marked = first
            marked.discontinuity = true
            added = [marked] + added.dropFirst()
        }
        track.media.targetDuration = fresh.targetDuration
        track.live = live
        track.extend(with: added)
        live = track.live ?? live
        if !added.isEmpty { live.lastGrowth = now }
        live.nextReload = now + .seconds(
            within: 3600, LiveRecording.reloadDelay(targetDuration: fresh.targetDuration, changed: !added.isEmpty))
        track.live = live
        if limited {
            endTrack(track, "--live-limit \(DurationFormat.clock(liveLimit ?? 0)) reached")
        } else if !fresh.isLive {
            endTrack(track, "the stream ended")
        }
    }

    /// The live track's playlist could not be fetched again: tried again at the next reload, until `--retries` in a
    /// row fail; then the recording ends with what it has (or fails, when it has nothing).
    func reloadFailed(track number: Int, _ error: DownloadError) {
        let track = tracks[number]
        guard var live = track.live else { return }
        live.reloading = false
        live.failedReloads += 1
        live.nextReload = .now + .seconds(within: 3600, LiveRecording.reloadDelay(targetDuration: track.media.targetDuration, changed: false))
        track.live = live
        guard live.failedReloads > request.options.segmentRetries else { return }
        guard position > 0 else { return fail(error) }
        endRecording("the live playlist stopped answering (\(error))")
    }

    /// A live segment the server no longer has (it left the window before its turn): a gap in the recording.
    func segmentLeftWindow(_ track: StreamTrack, _ index: Int) {
        track.live?.missing.insert(index)
        noteGap(1, atSeconds: track.doneSeconds)
        track.held[index] = []
        for next in track.window.fetched(index, bytes: 0) { append(next, of: track) }
    }

    /// The user stopped the recording: what is appended is the finished file.
    func stopRecording() -> TransferNext {
        // Nothing recorded yet, or no recording: it pauses as any stream does.
        guard isLive, case .receiving = phase, tracks.contains(where: { $0.segmentBase + $0.window.appended > 0 }) else {
            return .conclude(.paused)
        }
        endRecording("stopped by the user")
        for track in tracks { track.window.end() }
        return pump()
    }

    /// Ends every live track (nothing more is taken; what is listed is still fetched) for `reason`.
    func endRecording(_ reason: String) {
        for track in tracks { endTrack(track, reason) }
    }

    private func endTrack(_ track: StreamTrack, _ reason: String) {
        guard track.live?.ended == false else { return }
        track.live?.ended = true
        if info?.live?.ended == nil { info?.live?.ended = reason }
    }

    func noteGap(_ segments: Int64, atSeconds seconds: Double) {
        info?.live?.note(LiveGap(segments: segments, atSeconds: seconds))
    }

    /// A live HLS media playlist fetched again; nil when it became a master playlist.
    private func reloadedPlaylist(_ bytes: [UInt8], from url: String) throws(PlaylistError) -> MediaPlaylist? {
        guard case let .media(media) = try PlaylistParser.parse(bytes, url: url) else { return nil }
        return media
    }

    /// A live DASH manifest fetched again, resolved to the same representations: the video's (track 0) or the audio's
    /// (track 1). A manifest that became static lists the whole stream and ends it, as an end list does.
    private func reloadedManifest(_ bytes: [UInt8], from url: String, track number: Int) throws(PlaylistError) -> MediaPlaylist? {
        let resolution = try DASHStream.resolve(
            bytes, url: url, audioLanguages: request.requestOptions.streamAudio ?? [], liveNumbering: true
        ) { variants in variants.first { $0 == chosen } ?? pick(from: MasterPlaylist(variants: variants)) }
        guard case let .stream(dash) = resolution else { return nil }
        return number == 0 ? dash.video : dash.audio?.media
    }
}
