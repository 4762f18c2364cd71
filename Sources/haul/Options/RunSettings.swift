import ArgumentParser
import Foundation
import HaulCore
import HaulSettings

/// The settings of one run: the command line's options over the settings file over the built-in defaults, as
/// `SettingsResolution` decides (DESIGN §10). Every run setting is read from here.
struct RunSettings {
    let resolution: SettingsResolution
    /// The file read; nil when there is none at the default location.
    let file: SettingsFile?
    /// The file looked for (absolute), when a location is known.
    let path: String?
    /// What the command line gave, by key (kept for a reload, where it still wins).
    let commandLine: [OptionKey: SettingValue]
    /// `--config` as given, absolute.
    let explicitPath: String?
    /// What RPC clients set while this haul runs (`changeGlobalOption`), by key: it wins until haul starts again.
    var remote: [OptionKey: SettingValue] = [:]

    /// Checks the command line's values, reads the file and resolves.
    static func load(
        config: String?, commandLine: [OptionKey: SettingValue],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> RunSettings {
        for (key, value) in commandLine.sorted(by: { $0.key < $1.key }) {
            let definition = OptionRegistry[key]
            guard let message = definition.check(value) else { continue }
            throw ValidationError("\(definition.flag) \(message)")
        }
        let explicit = config.map { absolutePath($0) }
        return try read(explicitPath: explicit, commandLine: commandLine, environment: environment)
    }

    /// Reads the file again (a reload): the same file, the same command line, what RPC clients set.
    func reloaded(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RunSettings {
        try Self.read(explicitPath: explicitPath, commandLine: commandLine, remote: remote, environment: environment)
    }

    /// These settings with `changes` an RPC client set over them (checked by the caller).
    func changed(by changes: [OptionKey: SettingValue]) -> RunSettings {
        let remote = self.remote.merging(changes) { _, new in new }
        let resolution = SettingsResolution(
            keys: OptionRegistry.all, file: file?.values ?? [:], path: path ?? "", commandLine: commandLine, remote: remote)
        return RunSettings(
            resolution: resolution, file: file, path: path, commandLine: commandLine, explicitPath: explicitPath, remote: remote)
    }

    private static func read(
        explicitPath: String?, commandLine: [OptionKey: SettingValue], remote: [OptionKey: SettingValue] = [:],
        environment: [String: String]
    ) throws -> RunSettings {
        let location = SettingsLocation.path(explicit: explicitPath, environment: environment)
        var file: SettingsFile?
        if let location {
            do {
                file = try SettingsFile.read(path: location.path, optional: location.optional)
            } catch {
                throw CommandFailure.usage(error.description)
            }
        }
        let resolution = SettingsResolution(
            keys: OptionRegistry.all, file: file?.values ?? [:], path: location?.path ?? "", commandLine: commandLine,
            remote: remote)
        return RunSettings(
            resolution: resolution, file: file, path: location?.path, commandLine: commandLine, explicitPath: explicitPath,
            remote: remote)
    }

    func int(_ name: OptionKey) -> Int? { resolution.value(name)?.intValue }
    func string(_ name: OptionKey) -> String? { resolution.value(name)?.stringValue }
    func bool(_ name: OptionKey) -> Bool { resolution.value(name)?.boolValue ?? false }
    func strings(_ name: OptionKey) -> [String] { resolution.value(name)?.stringsValue ?? [] }

    /// A usage error about `name`'s value, naming where the value was set.
    func problem(_ name: OptionKey, _ message: String) -> ValidationError {
        switch resolution.origin(name) {
        case let .file(path, line):
            ValidationError(SettingsFileError.badValue(path: path, line: line, key: name.name, section: nil, message: message).description)
        case .commandLine, .remote, .builtIn: ValidationError("\(OptionRegistry[name].flag) \(message)")
        }
    }

    /// The file's rules and categories, with the settings the command line gave pinned against them.
    var intakeRules: IntakeRules {
        IntakeRules(rules: file?.rules ?? [], categories: file?.categories ?? [], pinned: Set(commandLine.keys))
    }

    /// The directories rules and categories send tasks to (absolute): downloads reach them like the default one.
    var ruleDirectories: [String] {
        ((file?.rules ?? []).compactMap(\.directory) + (file?.categories ?? []).map(\.directory)).map { absolutePath($0) }
    }

    /// Tasks go into `dir` (default: the current directory).
    var downloadDirectory: String {
        string(.dir).map { absolutePath($0) } ?? FileManager.default.currentDirectoryPath
    }
}

extension Dictionary where Key == OptionKey, Value == SettingValue {
    /// Adds `value` under `name` when the command line gave it.
    mutating func given(_ name: OptionKey, _ value: SettingValue?) {
        if let value { self[name] = value }
    }
}
