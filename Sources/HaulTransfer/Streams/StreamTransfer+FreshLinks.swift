import HaulCore

/// Segment links that expire mid-download (DESIGN §11): a segment refused with 401, 403, 404 or 410 has its track's
/// media playlist fetched again, matched by media sequence and durations, and the download goes on with its fresh
/// links. Only a playlist that itself fails ends the task with its own error (which runs `--on-link-expired`).
extension StreamTransfer {
    /// Segment `index` of track `number`, fetched with a link of the track's `generation`, was refused with `error`.
    func linkRefused(_ track: StreamTrack, _ number: Int, _ index: Int, generation: Int, _ error: DownloadError) {
        switch SegmentLinkExpiry.decide(
            generation: generation, current: track.linkGeneration, refreshing: track.refreshing,
            askedBefore: track.askedForLinks.contains(index)
        ) {
        case .askAgain, .awaitFreshLinks:
            track.window.failed(index)
        case .fetchPlaylist:
            guard let link = track.link else { return fail(.streamPart(label(number, index), error)) }
            track.askedForLinks.insert(index)
            track.refreshing = true
            track.window.failed(index)
            add(StreamFetch(purpose: .freshLinks(track: number), url: link, range: nil, limit: PlaylistParser.maxBytes, task: request.id))
        case .fail:
            fail(.streamPart(label(number, index), error))
        }
    }

    /// The track's media playlist fetched again: its fresh links replace the stale ones, when it is the same stream.
    func receivedLinks(_ bytes: [UInt8], from url: String, track number: Int) {
        let track = tracks[number]
        track.refreshing = false
        let fresh: MediaPlaylist
        do {
            guard case let .media(media) = try PlaylistParser.parse(bytes, url: url) else {
                return fail(.remoteFileChanged("the playlist fetched again for fresh segment links is a list of variants now"))
            }
            fresh = media
        } catch {
            return fail(.playlist(error))
        }
        switch track.media.takingLinks(from: fresh, hasKey: { keys[$0] != nil }) {
        case let .success(media):
            track.media = media
            track.linkGeneration += 1
        case let .failure(mismatch):
            fail(.remoteFileChanged("the playlist fetched again for fresh segment links changed: \(mismatch.reason)"))
        }
    }
}
