/// What a task's body is (DESIGN §11): decided once, where its first answer is read, and stored with the task.
/// Nil on a task until then. The engine's factory picks the transfer for it; the closing policy and the
/// presentation read it; everything else asks the kind what it allows instead of branching on it.
public enum TaskKind: String, Sendable, Codable, CaseIterable {
    /// One file, fetched over one connection or in ranges (DESIGN §5, §7).
    case file
    /// An HLS stream: playlists whose segments are appended in order (DESIGN §9).
    case stream
    /// A DASH stream: a manifest whose representations' segments are appended in order, as an HLS stream's (§11).
    case dash
    /// A live HLS stream, recorded as it plays until it ends, `--live-limit` or the user stops it (§11).
    case live

    /// Whether its body is a stream of segments appended in order (HLS or DASH) rather than one file's bytes.
    public var isStream: Bool {
        switch self {
        case .file: false
        case .stream, .dash, .live: true
        }
    }

    /// Whether another link that serves the same bytes may continue the bytes kept (a rerun, `set-url`): a file's
    /// bytes are offsets in one resource; a stream's are segments of a playlist, matched by its own rules.
    public var keepsBytesAcrossLinks: Bool {
        !isStream
    }
}

extension TaskKind {
    /// Whether a user's pause ends it with what it has (a live recording is published), rather than keeping it to go on.
    public var pauseFinishes: Bool { self == .live }
}
