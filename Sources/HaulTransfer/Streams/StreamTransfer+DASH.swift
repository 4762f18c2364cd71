import HaulCore

/// A stream whose link answered a DASH manifest (DESIGN §11): the manifest resolves at once into the chosen video
/// representation's segments and the best audio's, which then run as an HLS stream's media playlists do.
extension StreamTransfer {
    func received(manifest bytes: [UInt8], from url: String) {
        manifestKind = .dash
        let dash: DASHStream
        do {
            dash = try DASHStream.resolve(bytes, url: url) { pick(from: MasterPlaylist(variants: $0)) }
        } catch {
            return fail(.playlist(error))
        }
        chosen = dash.variant
        bandwidth = dash.variant.averageBandwidth ?? dash.variant.bandwidth
        audio = dash.audio?.rendition
        videoMedia = dash.video
        audioMedia = dash.audio?.media
        guard tracks.isEmpty, phase == .awaitingResponse else { return }
        start(video: dash.video, audio: dash.audio?.media)
    }
}
