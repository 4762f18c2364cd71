import ArgumentParser
import Foundation
import HaulCore
import HaulRemote
import HaulReport
import HaulSettings

/// `haul config [run options] [--json]`: every setting a run with these options would use and where it comes
/// from; `haul config --reload`: a running haul reads its settings file again (DESIGN §10).
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings a run would use and where each comes from; --reload applies the settings file to a running haul.",
        // Written out: the hidden links argument would make the generated one read `haul config <options>`.
        usage: "haul config [<options>] [--json]\nhaul config --reload [--state-dir <dir>]",
        discussion: """
            Every long option of a run is a key of the settings file ($XDG_CONFIG_HOME/haul/config.toml, or --config FILE). \
            The command line wins over the file, the file over the built-in defaults. Each setting is shown with its \
            origin: default, FILE:LINE, or command line; [[rule]] and [[category]] entries follow.

            --reload makes the running haul read the file it started with: limits, concurrency, retries, timeouts and \
            the settings of tasks added from then on change at once; the rest is named as needing a restart. SIGHUP to \
            a background haul does the same.
            """)

    @OptionGroup var options: RunOptions
    @OptionGroup var display: DisplayOptions
    @Flag(help: "Print the settings as one JSON object.") var json = false
    @Flag(help: "Make the running haul read its settings file again and apply what can change live.") var reload = false
    /// Not in the help: taken only to say that `haul config` takes options, not links.
    @Argument(help: .hidden) var urls: [String] = []

    func validate() throws {
        if !urls.isEmpty { throw ValidationError("haul config takes options, not URLs") }
    }

    func run() async throws {
        if reload { return try await reloadOwner() }
        let settings = try options.settings(extra: display.commandLine)
        // The checks a run makes before it starts, so a bad file is reported here too.
        _ = try settings.transferOptions()
        _ = try settings.overallLimit()
        try settings.validateRemote()
        _ = try settings.proxyDefaults()
        print(json ? Self.json(settings) : Self.table(settings))
    }

    /// Asks the running haul to reload, and prints its answer.
    private func reloadOwner() async throws {
        let session = try QueueSession.open(stateDirectory: options.state.stateDirectory)
        let endpoint = try await QueueEndpoint.open(session)
        guard case let .owner(client, pid) = endpoint else {
            await endpoint.close()
            throw CommandFailure.runtime("no haul is running; a haul reads the settings file when it starts")
        }
        let answer: SettingsReloadAnswer
        do {
            answer = try await client.reloadSettings()
        } catch {
            throw CommandFailure.ownerUnreachable(pid: pid, context: "to the reload", reason: "\(error)")
        }
        if let error = answer.error { throw CommandFailure.usage("the running haul (pid \(pid)) kept its settings: \(error)") }
        for line in SettingsReloader.lines(answer, trigger: "haul (pid \(pid))") { print(line) }
    }

    /// `KEY  VALUE  ORIGIN` per setting, then the rules and categories.
    static func table(_ settings: RunSettings) -> String {
        var lines = ["settings file  " + (settings.path.map { path in settings.file == nil ? "\(path) (none there)" : path } ?? "(none)")]
        // The directory a run would download into, also when nothing names one (the current directory).
        let rows = settings.resolution.entries.map { entry in
            let unset = entry.key.key == .dir ? settings.downloadDirectory.jsonStringLiteral : "(none)"
            return (entry.key.name, entry.shownValue?.description ?? unset, entry.origin.description)
        }
        let keyWidth = (rows.map(\.0.count).max() ?? 0) + 2
        let valueWidth = min(40, (rows.map(\.1.count).max() ?? 0) + 2)
        for (key, value, origin) in rows { lines.append(key.padding(keyWidth) + value.padding(valueWidth) + origin) }
        for rule in settings.file?.rules ?? [] { lines.append("rule      " + describe(rule)) }
        for category in settings.file?.categories ?? [] { lines.append("category  " + describe(category)) }
        return lines.joined(separator: "\n")
    }

    static func describe(_ rule: HostRule) -> String {
        var parts = ["host = \(rule.host.pattern.jsonStringLiteral)"]
        if let split = rule.split { parts.append("split = \(split)") }
        if let text = rule.rateLimitText { parts.append("limit-rate = \(text.jsonStringLiteral)") }
        if let proxy = rule.allProxy { parts.append("all-proxy = \(ProxyURL.redacted(proxy).jsonStringLiteral)") }
        if !rule.headers.isEmpty { parts.append("header = \(SettingValue.strings(rule.headers.map(SecretText.header)))") }
        if let agent = rule.userAgent { parts.append("user-agent = \(agent.jsonStringLiteral)") }
        if let cookies = rule.loadCookies { parts.append("load-cookies = \(cookies.jsonStringLiteral)") }
        if let directory = rule.directory { parts.append("dir = \(directory.jsonStringLiteral)") }
        return parts.joined(separator: ", ") + "  (\(rule.origin))"
    }

    static func describe(_ category: DownloadCategory) -> String {
        var parts: [String] = []
        if !category.extensions.isEmpty { parts.append("extensions = \(SettingValue.strings(category.extensions))") }
        if !category.contentTypes.isEmpty { parts.append("content-types = \(SettingValue.strings(category.contentTypes))") }
        parts.append("dir = \(category.directory.jsonStringLiteral)")
        return parts.joined(separator: ", ") + "  (\(category.origin))"
    }

    /// `{"file": …, "settings": [{"key", "value", "origin", "file", "line", "live"}], "rules": […], "categories": […]}`;
    /// rules and categories have a field per key (`SectionJSON`).
    static func json(_ settings: RunSettings) -> String {
        var object = JSONLine()
        object.add("file", json: settings.file == nil ? "null" : (settings.path ?? "").jsonStringLiteral)
        object.add("settings", json: "[" + settings.resolution.entries.map { entry in
            var line = JSONLine()
            line.add("key", entry.key.name)
            line.add("value", json: entry.shownValue?.description ?? "null")
            line.add("origin", entry.origin.description)
            if case let .file(_, number) = entry.origin { line.add("line", Int64(number)) }
            line.add("live", json: entry.key.change == .live ? "true" : "false")
            return line.text
        }.joined(separator: ",") + "]")
        object.add("rules", json: "[" + (settings.file?.rules ?? []).map { SectionJSON.rule($0).text }.joined(separator: ",") + "]")
        object.add("categories", json: "["
            + (settings.file?.categories ?? []).map { SectionJSON.category($0).text }.joined(separator: ",") + "]")
        return object.text
    }
}
