/// The one place that tells a stream's first answer from a file's (DESIGN §9, §11): an HLS playlist or a DASH
/// manifest, by its content type or, when that says nothing, by its first bytes.
public enum StreamManifest {
    /// The kind of task an answer makes: `.stream` for an HLS playlist, `.dash` for a DASH manifest, nil for a file.
    public static func kind(prefix: some Collection<UInt8>, contentType: String?) -> TaskKind? {
        if PlaylistParser.isPlaylist(prefix: prefix, contentType: contentType) { return .stream }
        if DASHStream.isManifest(prefix: prefix, contentType: contentType) { return .dash }
        return nil
    }
}
