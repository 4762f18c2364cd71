/// The part files this engine's transfers hold, so a new transfer never takes over a sibling's empty part file.
///
/// Owned and used by the transfer thread only.
final class PartRegistry {
    var paths: Set<String> = []
}
