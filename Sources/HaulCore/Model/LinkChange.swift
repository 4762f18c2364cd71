/// A task's link was replaced (`haul set-url`, the list's `e`, RPC `changeUri`) while it holds bytes from the
/// old one: how far the first answer from the new link must agree before those bytes are kept (DESIGN §8).
///
/// The new link must serve a file of the same length. Where both answers carry a strong ETag or a
/// Last-Modified and they differ, the bytes are kept only when the user said so; otherwise the attempt is
/// refused with both sides named, and nothing is spliced.
public enum LinkChange: String, Sendable, Equatable, Codable {
    /// Keep the bytes only if the new link serves the same file: same length, no contradicting validator.
    case sameFile = "same-file"
    /// The user vouched for the new link (`--keep-bytes`): same length suffices, its validators are adopted.
    case keepBytes = "keep-bytes"
    /// The user chose to start over (`--restart`): the kept bytes are dropped at the next attempt.
    case restart
}
