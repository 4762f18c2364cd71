/// THE precedence rule of settings (DESIGN §10), as a pure value: an RPC client's `changeGlobalOption` wins over
/// the command line (until haul starts again, as in aria2), the command line over the settings file, and the file
/// over the built-in defaults. Every setting of a run is read from here, and from nowhere else.
public struct SettingsResolution: Sendable {
    /// A value from the settings file and the line it is on.
    public struct FileValue: Sendable, Equatable {
        public var value: SettingValue
        public var line: Int

        public init(_ value: SettingValue, line: Int) {
            self.value = value
            self.line = line
        }
    }

    /// One setting as resolved: its value (nil: not set, no default) and where that came from.
    public struct Entry: Sendable {
        public let key: OptionDefinition
        public let value: SettingValue?
        public let origin: SettingOrigin

        /// The value as shown, with credentials masked (`OptionDefinition.shown`).
        public var shownValue: SettingValue? { value.map(key.shown) }
    }

    /// Every key, in the table's order.
    public let entries: [Entry]
    private let index: [OptionKey: Int]

    /// - Parameters:
    ///   - keys: the table of options (`OptionRegistry.all`); one in `file` or `commandLine` outside it is ignored.
    ///   - file: the settings file's values by key; `path` names the file in origins.
    ///   - commandLine: the values the command line gave, by key.
    ///   - remote: the values RPC clients set while haul runs, by key.
    public init(
        keys: [OptionDefinition] = OptionRegistry.all, file: [OptionKey: FileValue] = [:], path: String = "",
        commandLine: [OptionKey: SettingValue] = [:], remote: [OptionKey: SettingValue] = [:]
    ) {
        entries = keys.map { key in
            if let set = remote[key.key] { return Entry(key: key, value: set, origin: .remote) }
            if let given = commandLine[key.key] { return Entry(key: key, value: given, origin: .commandLine) }
            if let found = file[key.key] { return Entry(key: key, value: found.value, origin: .file(path: path, line: found.line)) }
            return Entry(key: key, value: key.defaultValue, origin: .builtIn)
        }
        index = Dictionary(entries.enumerated().map { ($1.key.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entry of `key`; a key outside the table is a programming error.
    public subscript(_ key: OptionKey) -> Entry {
        guard let position = index[key] else { preconditionFailure("no setting named \(key.rawValue)") }
        return entries[position]
    }

    public func value(_ key: OptionKey) -> SettingValue? { self[key].value }
    public func origin(_ key: OptionKey) -> SettingOrigin { self[key].origin }

    /// The options whose values differ between `self` and `other` (both built from the same table).
    public func changedKeys(from other: SettingsResolution) -> [OptionKey] {
        entries.filter { entry in other.index[entry.key.key].map { other.entries[$0].value != entry.value } ?? true }.map(\.key.key)
    }
}
