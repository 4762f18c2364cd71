/// One key of the settings file: a long option of a run (DESIGN §10), with its type, its built-in default,
/// the rule its values must pass, and whether a running haul can take a new value without a restart.
public struct SettingKey: Sendable {
    /// When a new value takes effect in a running haul (`haul config --reload`, SIGHUP).
    public enum Change: Sendable, Equatable {
        /// At once: limits and concurrency, and the settings of tasks added from then on.
        case live
        /// Only when haul starts again.
        case restart
    }

    /// The key, which is the option's long name without `--` (`max-concurrent`).
    public let name: String
    /// How the option is spelled on the command line, for messages (`-j/--max-concurrent`).
    public let flag: String
    public let kind: SettingKind
    /// The built-in default; nil when the setting is off or taken from elsewhere (the environment, the queue).
    public let defaultValue: SettingValue?
    public let change: Change
    /// Why a value is refused (nil: accepted), without the key's name: "must be 0 or more, got -1".
    public let check: @Sendable (SettingValue) -> String?
    /// The value as shown (`haul config`, the reload's report): credentials in it masked.
    public let shown: @Sendable (SettingValue) -> SettingValue

    public init(
        _ name: String, flag: String? = nil, kind: SettingKind, default defaultValue: SettingValue? = nil,
        change: Change = .restart, check: @escaping @Sendable (SettingValue) -> String? = { _ in nil },
        shown: @escaping @Sendable (SettingValue) -> SettingValue = { $0 }
    ) {
        self.name = name
        self.flag = flag ?? "--" + name
        self.kind = kind
        self.defaultValue = defaultValue
        self.change = change
        self.check = check
        self.shown = shown
    }
}
