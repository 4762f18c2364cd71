/// Everything about one option (DESIGN §11): how it is spelt on the command line, its type, built-in default and
/// check, how it is shown (credentials masked), whether a running haul takes a new value live, whether a download
/// may set it for itself, and its name and value form in aria2's RPC. The command line, the settings file, input
/// files, rules, `haul config` and the RPC options all read it from here.
public struct OptionDefinition: Sendable {
    /// When a new value takes effect in a running haul (`haul config --reload`, SIGHUP, `changeGlobalOption`).
    public enum Change: Sendable, Equatable {
        /// At once: limits and concurrency, and the settings of tasks added from then on.
        case live
        /// Only when haul starts again.
        case restart
    }

    /// Who may set it.
    public enum Scope: Sendable, Equatable {
        /// The run only (the command line, the settings file, `changeGlobalOption`).
        case run
        /// Also each download for itself (an RPC add or `changeOption`, an input-file entry, a rule).
        case task
    }

    public let key: OptionKey
    /// How the option is spelled on the command line, for messages (`-j/--max-concurrent`).
    public let flag: String
    public let kind: SettingKind
    /// The built-in default; nil when the setting is off or taken from elsewhere (the environment, the queue).
    public let defaultValue: SettingValue?
    public let change: Change
    public let scope: Scope
    /// Its name and value form in aria2's RPC; nil when RPC clients never see it.
    public let aria2: Aria2Form?
    /// Its value names a local file haul reads (a CA bundle, cookies, logins): an RPC client may name one for its own
    /// download only inside `--rpc-allowed-dir`, and never for the whole run.
    public let namesFile: Bool
    /// What its value is, for completions and the man page (a file when it names one, else text unless given).
    public let values: OptionValues
    /// Why a value is refused (nil: accepted), without the key's name: "must be 0 or more, got -1".
    public let check: @Sendable (SettingValue) -> String?
    /// The value as shown (`haul config`, the reload's report, RPC): credentials in it masked.
    public let shown: @Sendable (SettingValue) -> SettingValue
    /// What `--help` says of it.
    public let help: OptionHelp

    /// The key, which is the option's long name without `--` (`max-concurrent`).
    public var name: String { key.rawValue }

    public init(
        _ key: OptionKey, flag: String? = nil, kind: SettingKind, default defaultValue: SettingValue? = nil,
        change: Change = .restart, scope: Scope = .run, aria2: Aria2Form? = nil, namesFile: Bool = false, values: OptionValues? = nil,
        check: @escaping @Sendable (SettingValue) -> String? = { _ in nil },
        shown: @escaping @Sendable (SettingValue) -> SettingValue = { $0 }, help: OptionHelp
    ) {
        self.key = key
        self.flag = flag ?? "--" + key.rawValue
        self.kind = kind
        self.defaultValue = defaultValue
        self.change = change
        self.scope = scope
        self.aria2 = aria2.map { $0 == .same ? Aria2Form(key.rawValue) : $0 }
        self.namesFile = namesFile
        self.values = values ?? (namesFile ? .file : .text)
        self.check = check
        self.shown = shown
        self.help = help
    }
}
