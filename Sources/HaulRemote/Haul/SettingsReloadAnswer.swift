/// What a running haul answers to `haul.reload` (the settings file read again): what changed at once, what waits
/// for a restart, or why nothing changed.
public struct SettingsReloadAnswer: Sendable, Equatable, Codable {
    /// The file read, if any.
    public var file: String?
    /// Settings applied at once, as `key: old → new`.
    public var applied: [String] = []
    /// Settings changed in the file that take effect only when haul starts again.
    public var needsRestart: [String] = []
    /// Why the file was not applied (nothing changed then).
    public var error: String?

    public init(file: String? = nil, applied: [String] = [], needsRestart: [String] = [], error: String? = nil) {
        self.file = file
        self.applied = applied
        self.needsRestart = needsRestart
        self.error = error
    }
}
