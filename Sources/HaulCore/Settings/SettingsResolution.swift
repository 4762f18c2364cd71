/// THE precedence rule of settings (DESIGN §10), as a pure value: the command line wins over the settings file,
/// and the file over the built-in defaults. Every setting of a run is read from here, and from nowhere else.
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
        public let key: SettingKey
        public let value: SettingValue?
        public let origin: SettingOrigin

        /// The value as shown, with credentials masked (`SettingKey.shown`).
        public var shownValue: SettingValue? { value.map(key.shown) }
    }

    /// Every key, in the table's order.
    public let entries: [Entry]
    private let index: [String: Int]

    /// - Parameters:
    ///   - keys: the table of keys (`SettingKeys.run`); a name in `file` or `commandLine` outside it is ignored
    ///     (the file reader refuses unknown keys first).
    ///   - file: the settings file's values by key; `path` names the file in origins.
    ///   - commandLine: the values the command line gave, by key.
    public init(
        keys: [SettingKey], file: [String: FileValue] = [:], path: String = "", commandLine: [String: SettingValue] = [:]
    ) {
        entries = keys.map { key in
            if let given = commandLine[key.name] { return Entry(key: key, value: given, origin: .commandLine) }
            if let found = file[key.name] { return Entry(key: key, value: found.value, origin: .file(path: path, line: found.line)) }
            return Entry(key: key, value: key.defaultValue, origin: .builtIn)
        }
        index = Dictionary(entries.enumerated().map { ($1.key.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entry of `name`; a name outside the table is a programming error.
    public subscript(_ name: String) -> Entry {
        guard let position = index[name] else { preconditionFailure("no setting named \(name)") }
        return entries[position]
    }

    public func value(_ name: String) -> SettingValue? { self[name].value }
    public func origin(_ name: String) -> SettingOrigin { self[name].origin }

    /// The names whose values differ between `self` and `other` (both built from the same table).
    public func changedKeys(from other: SettingsResolution) -> [String] {
        entries.filter { entry in other.index[entry.key.name].map { other.entries[$0].value != entry.value } ?? true }.map(\.key.name)
    }
}
