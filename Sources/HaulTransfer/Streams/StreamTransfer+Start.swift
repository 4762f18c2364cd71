import HaulCore

/// The media playlists are known: the part files are opened (or continued when the playlists still match by
/// sequence and durations), and the task is told what the stream is.
extension StreamTransfer {
    func start(video listed: MediaPlaylist, audio listedAudio: MediaPlaylist?) {
        // A live stream is recorded from where it joins its window (`StreamTransfer+Live`).
        let stored = request.stream?.live != nil && request.stream?.tracks.count == (listedAudio == nil ? 1 : 2) ? request.stream : nil
        var video = listed, audioMedia = listedAudio
        var live: [LiveTrack] = []
        var missed: Int64 = 0
        if listed.isLive {
            let now = ContinuousClock.now
            let joined = joinLive(listed, stored: stored?.tracks[0], recorded: stored?.tracks[0].doneSeconds ?? 0, now: now)
            (video, missed) = (joined.media, joined.missed)
            live.append(joined.live)
            if let listedAudio {
                let audio = joinLive(listedAudio, stored: stored?.tracks[1], recorded: stored?.tracks[1].doneSeconds ?? 0, now: now)
                audioMedia = audio.media
                live.append(audio.live)
            }
        }
        switch StreamOutput.decide(
            video: video, audio: audioMedia, requestedName: request.requestedName, remux: request.requestOptions.streamRemux,
            ffmpeg: FFmpeg.path != nil
        ) {
        case let .success(decided): output = decided
        case let .failure(refusal): return fail(.streamRefused(refusal))
        }
        var info = StreamInfo(
            tracks: [StreamTrackInfo(video)] + (audioMedia.map { [StreamTrackInfo($0, rendition: audio?.name ?? "audio")] } ?? []),
            variant: chosen.map(Self.describe), variantKey: chosen.map(Self.key(of:)),
            encryption: video.isEncrypted || audioMedia?.isEncrypted == true ? "AES-128" : nil,
            container: video.isFragmentedMP4 ? "mp4" : "ts")
        if listed.isLive { info.live = stored?.live ?? LiveRecord() }
        info.renditions = renditions
        if listed.isLive {
            for track in subtitles where track.failure == nil {
                track.failure = "subtitles of a live stream are not recorded"
                pendingNotes.append("subtitles '\(track.language)' were not saved: \(track.failure ?? "")")
            }
        }
        if missed > 0 { info.live?.note(LiveGap(segments: missed, atSeconds: stored?.tracks[0].doneSeconds ?? 0)) }
        // A live recording goes on in its part files whatever the window lists now.
        var restartReason = listed.isLive ? nil : Self.mismatch(stored: request.stream, fresh: info)
        if restartReason == nil, let stored = listed.isLive ? stored : request.stream {
            for index in info.tracks.indices {
                info.tracks[index].segmentsDone = stored.tracks[index].segmentsDone
                info.tracks[index].appendedBytes = stored.tracks[index].appendedBytes
                info.tracks[index].doneSeconds = stored.tracks[index].doneSeconds
                info.tracks[index].lastSequence = stored.tracks[index].lastSequence
            }
        }
        var writers: [FileWriter] = []
        let name: String
        do throws(DownloadError) {
            try directory.checkFreeSpace(for: request, needed: nil)
            if request.stream != nil, let stored = request.fileName {
                name = stored
                writers.append(try directory.openPart(of: name))
            } else {
                let wanted = StreamFileName.choose(
                    requested: request.requestedName, url: request.url, container: info.container, stem: request.nameStem)
                let (reserved, writer) = try directory.reservePart(
                    for: wanted, inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere,
                    replacing: request.requestOptions.allowOverwrite == true, tag: PartOwnerTag(request))
                name = reserved
                writers.append(writer)
            }
            if audioMedia != nil { writers.append(try directory.openPart(of: StreamFileName.audioPart(of: name))) }
            for (writer, track) in zip(writers, info.tracks) where track.segmentsDone > 0 {
                if try writer.size() < track.appendedBytes {
                    restartReason = restartReason ?? "a part file is shorter than the \(track.appendedBytes) bytes recorded"
                }
            }
            if restartReason != nil { info.restart() }
            for (writer, track) in zip(writers, info.tracks) { try writer.truncate(to: track.appendedBytes) }
        } catch {
            for writer in writers { writer.close() }
            return fail(error)
        }
        fileName = name
        let span = max(2 * request.options.split, 8)
        // HLS media playlists are fetched again for fresh segment links and a live stream's new segments; a DASH
        // manifest only when it is live (a segment whose link expired fails a video on demand, naming it).
        let links: [String?] = manifestKind == .dash
            ? Array(repeating: listed.isLive ? dashURL : nil, count: audioMedia == nil ? 1 : 2)
            : [chosen?.uri ?? request.url] + (audioMedia == nil ? [] : [audio?.uri])
        tracks = zip(zip([video] + (audioMedia.map { [$0] } ?? []), links), zip(info.tracks, writers)).map { media, pair in
            let track = StreamTrack(media: media.0, link: media.1, info: pair.0, span: span, live: live.isEmpty ? nil : live.removeFirst())
            track.writer = pair.1
            partsInUse.paths.insert(pair.1.path)
            return track
        }
        if let rendition = info.tracks.dropFirst().first?.rendition {
            info.note = FFmpeg.path == nil
                ? "audio '\(rendition)' is saved beside the video as \(StreamFileName.audioName(of: name, container: info.container)) (ffmpeg is not installed to mux them)"
                : "audio '\(rendition)' is fetched beside the video and muxed into it with ffmpeg"
        }
        for note in [output?.note].compactMap({ $0 }) + pendingNotes { info.note = info.note.map { $0 + "; " + note } ?? note }
        pendingNotes = []
        self.info = info
        phase = .receiving
        emit(.responded(request.id, ResponseSummary(
            fileName: name, totalBytes: info.estimatedTotal(bandwidth: bandwidth), validators: RemoteValidators(),
            offset: position, restartReason: restartReason, httpStatus: 200, kind: listed.isLive ? .live : manifestKind)))
        emit(.streamResolved(request.id, info, fileName: name, bandwidth: bandwidth))
    }

    /// Why the stored progress cannot be continued with the playlists fetched now; nil when it can (or none is kept).
    static func mismatch(stored: StreamInfo?, fresh: StreamInfo) -> String? {
        guard let stored, stored.segmentsDone > 0 else { return nil }
        guard stored.tracks.count == fresh.tracks.count else {
            return "the playlist changed: it now has \(fresh.tracks.count) media playlists, not \(stored.tracks.count)"
        }
        for (kept, now) in zip(stored.tracks, fresh.tracks) {
            if let mismatch = kept.fingerprint.mismatch(now.fingerprint) { return "the playlist changed: \(mismatch)" }
        }
        return nil
    }
}
