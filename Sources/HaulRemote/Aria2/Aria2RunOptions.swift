import Foundation
import HaulCore

/// The settings of the run under aria2's option names and value forms (`OptionRegistry`), so a client's settings
/// pages show what haul uses (AriaNg would otherwise show aria2's defaults, say `split` 5 where haul uses 4).
/// Unset options are absent, as in aria2; credentials are masked.
public struct Aria2RunOptions: Sendable {
    /// Every option's value for this run (defaults included), by key.
    public var values: [OptionKey: SettingValue]
    /// The proxies of a download that names none (the environment's when `all-proxy` is not set).
    public var proxies: ProxySettings
    /// Where a download that names no directory goes (absolute).
    public var directory: String

    /// `values` nil: the built-in defaults.
    public init(values: [OptionKey: SettingValue]? = nil, proxies: ProxySettings = ProxySettings(), directory: String = "") {
        self.values = values ?? Dictionary(uniqueKeysWithValues: OptionRegistry.all.compactMap { definition in
            definition.defaultValue.map { (definition.key, $0) }
        })
        self.proxies = proxies
        self.directory = directory
    }

    /// Options of the whole run that no download has for itself (aria2's `getOption` leaves them out).
    static let runOnly: Set<OptionKey> = [.maxConcurrent, .maxOverallDownloadLimit, .onDownloadComplete, .onDownloadError]

    /// aria2's names of the proxy options: haul's two, and the per-scheme two aria2 also has.
    private static let allProxy = OptionRegistry[.allProxy].aria2?.name ?? ""
    private static let noProxy = OptionRegistry[.noProxy].aria2?.name ?? ""
    private static let proxyNames = [allProxy, "http-proxy", "https-proxy", noProxy]

    /// aria2's proxy options for `proxies`, credentials removed.
    static func proxyOptions(_ proxies: ProxySettings) -> [String: JSONValue] {
        let shown = proxies.redacted
        var options: [String: JSONValue] = [:]
        if let all = shown.http, all == shown.https {
            options[allProxy] = .string(all)
        } else {
            if let http = shown.http { options["http-proxy"] = .string(http) }
            if let https = shown.https { options["https-proxy"] = .string(https) }
        }
        if let list = shown.noProxy { options[noProxy] = .string(list) }
        return options
    }

    /// `value` of the option `definition` as a client reads it: masked, in aria2's form.
    static func shown(_ value: SettingValue, of definition: OptionDefinition) -> JSONValue {
        .string(Aria2Form.text(definition.shown(value), kind: definition.kind))
    }

    /// Every option of the run with an aria2 name, and the facts of haul's behaviour (`Aria2Facts`).
    var global: [String: JSONValue] {
        var options = Aria2Facts.behaviour
        for definition in OptionRegistry.all {
            guard let name = definition.aria2?.name, let value = values[definition.key] else { continue }
            options[name] = Self.shown(value, of: definition)
        }
        // Proxies as they apply: the setting, else the environment's (`http-proxy`/`https-proxy` when they differ).
        for key in Self.proxyNames { options[key] = nil }
        options.merge(Self.proxyOptions(proxies)) { _, own in own }
        if let name = OptionRegistry[.dir].aria2?.name { options[name] = .string(directory) }
        return options
    }

    /// `getOption` for one download: the run's options it inherits, with its own over them.
    func options(of row: QueueSnapshot.Row) -> [String: JSONValue] {
        let task = row.task
        var options = global
        for key in Self.runOnly { if let name = OptionRegistry[key].aria2?.name { options[name] = nil } }
        if let name = OptionRegistry[.dir].aria2?.name { options[name] = .string(task.directory) }
        if let name = task.requestedName ?? task.fileName { options["out"] = .string(name) }
        if !task.headers.isEmpty, let name = OptionRegistry[.header].aria2?.name {
            options[name] = Self.shown(.strings(task.headers), of: OptionRegistry[.header])
        }
        for (key, prefix) in [(OptionKey.referer, "referer:"), (.userAgent, "user-agent:")] {
            if let line = task.headers.last(where: { $0.lowercased().hasPrefix(prefix) }), let name = OptionRegistry[key].aria2?.name {
                let value = String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
                options[name] = Self.shown(.string(value), of: OptionRegistry[key])
            }
        }
        if let checksum = task.checksum { options["checksum"] = .string(checksum.description) }
        if let proxies = task.requestOptions.proxies {
            for key in Self.proxyNames { options[key] = nil }
            options.merge(Self.proxyOptions(proxies)) { _, own in own }
        }
        let own: [(OptionKey, SettingValue?)] = [
            (.loadCookies, task.requestOptions.cookiesFile.map(SettingValue.string)),
            (.netrcFile, task.requestOptions.netrcFile.map(SettingValue.string)),
            (.allowOverwrite, task.requestOptions.allowOverwrite == true ? .bool(true) : nil),
            (.stream, task.requestOptions.streamOff == true ? .string("off") : nil),
            (.streamQuality, task.requestOptions.streamQuality.map(SettingValue.string)),
            (.streamRemux, task.requestOptions.streamRemux.map(SettingValue.string)),
            (.liveLimit, task.requestOptions.liveLimit.map { .string(DurationFormat.clock($0)) }),
            (.streamAudio, task.requestOptions.streamAudio.map { .string($0.joined(separator: ",")) }),
            (.streamSubs, task.requestOptions.streamSubs.map(SettingValue.string)),
            (.split, .int(row.split)),
            (.limitRate, row.rateLimit.map { .string(String($0.bytesPerSecond)) }),
        ]
        for (key, value) in own {
            guard let value, let name = OptionRegistry[key].aria2?.name else { continue }
            options[name] = Self.shown(value, of: OptionRegistry[key])
        }
        return options
    }
}
