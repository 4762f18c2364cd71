import HaulCore

/// A stream whose link answered a DASH manifest (DESIGN §11): the manifest resolves into the chosen video
/// representation's segments and the best audio's, which then run as an HLS stream's media playlists do. A
/// `SegmentBase` representation's `sidx` box is fetched first (a ranged request), and the manifest resolves again.
extension StreamTransfer {
    /// The most bytes a `sidx` box may have.
    static let indexLimit = 1 << 20

    func received(manifest bytes: [UInt8], from url: String) {
        manifestKind = .dash
        dashManifest = (bytes, url)
        dashURL = url
        resolveManifest()
    }

    /// A `sidx` box the manifest needed arrived.
    func received(index bytes: [UInt8], for request: DASHIndexRequest) {
        dashIndexes[request] = bytes
        guard !fetches.contains(where: { if case .segmentIndex = $0.purpose { true } else { false } }) else { return }
        resolveManifest()
    }

    private func resolveManifest() {
        guard let (bytes, url) = dashManifest else { return }
        let resolution: DASHStream.Resolution
        do throws(PlaylistError) {
            resolution = try DASHStream.resolve(
                bytes, url: url, indexes: dashIndexes, audioLanguages: request.requestOptions.streamAudio ?? [],
                subtitles: request.requestOptions.subtitleChoice
            ) { pick(from: MasterPlaylist(variants: $0)) }
        } catch {
            return fail(.playlist(error))
        }
        switch resolution {
        case let .needs(requests):
            for request in requests where dashIndexes[request] == nil {
                add(StreamFetch(purpose: .segmentIndex(request), url: request.url, range: request.range, limit: Self.indexLimit, task: self.request.id))
            }
        case let .stream(dash):
            dashManifest = nil
            chosen = dash.variant
            bandwidth = dash.variant.averageBandwidth ?? dash.variant.bandwidth
            audio = dash.audio?.rendition
            videoMedia = dash.video
            audioMedia = dash.audio?.media
            guard tracks.isEmpty, phase == .awaitingResponse else { return }
            renditions = dash.renditions.isEmpty ? nil : dash.renditions
            subtitles = dash.subtitles.map { subtitle in
                let track = SubtitleTrack(rendition: subtitle.rendition)
                track.media = subtitle.media
                return track
            }
            start(video: dash.video, audio: dash.audio?.media)
        }
    }
}
