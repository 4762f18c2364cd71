import HaulCore

/// One subtitle rendition of a stream on the transfer thread (`--stream-subs`, DESIGN §11): its media playlist, then
/// its WebVTT segments one at a time, joined in memory (`WebVTTJoin`, bounded) and written beside the video when the
/// stream is published. Small text: it is fetched again on a resume rather than kept per segment. A subtitle that
/// cannot be fetched never fails the video; the task's note says why it is missing.
final class SubtitleTrack {
    let rendition: Rendition
    var media: MediaPlaylist?
    /// The next segment to fetch, and whether one is being fetched.
    var next = 0
    var fetching = false
    var joined = WebVTTJoin()
    /// Why it is left out, once it is.
    var failure: String?

    init(rendition: Rendition) {
        self.rendition = rendition
    }

    /// The language it is saved under (`NAME.LANG.vtt`).
    var language: String { rendition.language ?? rendition.name }

    /// Fetched whole, or left out.
    var isDone: Bool { failure != nil || (!fetching && media.map { next >= $0.segments.count } == true) }
}

extension StreamTransfer {
    /// The subtitle renditions of `variant` the task asks for, each starting with its media playlist.
    func fetchSubtitles(of variant: Variant, in master: MasterPlaylist) {
        subtitles = master.subtitles(for: variant, request.requestOptions.subtitleChoice).map(SubtitleTrack.init)
        for (number, track) in subtitles.enumerated() {
            guard let uri = track.rendition.uri else { continue }
            add(StreamFetch(purpose: .subtitlePlaylist(number), url: uri, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
        }
    }

    /// The next segment of each subtitle track whose playlist is known, one at a time per track.
    func pumpSubtitles() {
        for (number, track) in subtitles.enumerated() where !track.isDone && !track.fetching {
            guard let media = track.media, track.next < media.segments.count else { continue }
            let segment = media.segments[track.next]
            track.fetching = true
            add(StreamFetch(
                purpose: .subtitleSegment(number, track.next), url: segment.uri, range: segment.byteRange,
                limit: WebVTTJoin.maxBytes, task: request.id))
        }
    }

    /// A subtitle fetch ended with `outcome`.
    func subtitleEnded(_ purpose: StreamFetch.Purpose, _ outcome: Result<[UInt8], DownloadError>, from url: String) {
        switch (purpose, outcome) {
        case let (.subtitlePlaylist(number), .success(body)):
            do {
                guard case let .media(media) = try PlaylistParser.parse(body, url: url) else {
                    return leaveOut(number, "its playlist is a list of variants")
                }
                guard !media.isLive else { return leaveOut(number, "subtitles of a live stream are not recorded") }
                guard media.segments.allSatisfy({ $0.key == nil }) else { return leaveOut(number, "its segments are encrypted") }
                subtitles[number].media = media
            } catch {
                leaveOut(number, "\(error)")
            }
        case let (.subtitlePlaylist(number), .failure(error)):
            leaveOut(number, "its playlist: \(error)")
        case let (.subtitleSegment(number, index), .success(body)):
            let track = subtitles[number]
            track.fetching = false
            guard track.joined.append(body) else {
                return leaveOut(number, "segment \(index) is not WebVTT, or the subtitles pass \(ByteCountFormat.size(Int64(WebVTTJoin.maxBytes)))")
            }
            track.next += 1
        case let (.subtitleSegment(number, index), .failure(error)):
            subtitles[number].fetching = false
            leaveOut(number, "segment \(index): \(error)")
        default:
            break
        }
    }

    /// The subtitles of track `number` are left out for `reason`, which the task's note gives.
    private func leaveOut(_ number: Int, _ reason: String) {
        let track = subtitles[number]
        guard track.failure == nil else { return }
        track.failure = reason
        let note = "subtitles '\(track.language)' were not saved: \(reason)"
        if let noted = info?.note {
            info?.note = noted + "; " + note
        } else if info != nil {
            info?.note = note
        } else {
            pendingNotes.append(note)
        }
    }

    /// The subtitles fetched whole, for the closing to write beside the video.
    var subtitleFiles: [ClosingSidecar] {
        subtitles.filter { $0.failure == nil && $0.isDone }.map { ClosingSidecar(language: $0.language, bytes: $0.joined.bytes) }
    }
}
