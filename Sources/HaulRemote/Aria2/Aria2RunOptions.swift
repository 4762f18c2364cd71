import Foundation
import HaulCore

/// The settings of the run, under aria2's option names, so a client's settings pages show what haul uses
/// (AriaNg would otherwise show aria2's defaults, say `split` 5 where haul uses 4). Numbers are decimal strings.
public struct Aria2RunOptions: Sendable {
    public var transfer: TransferOptions
    public var maxTries: Int
    /// The proxies of a download that names none.
    public var proxies: ProxySettings

    public init(transfer: TransferOptions = TransferOptions(), maxTries: Int = RetryPolicy().maxRetries, proxies: ProxySettings = ProxySettings()) {
        self.transfer = transfer
        self.maxTries = maxTries
        self.proxies = proxies
    }

    /// aria2's proxy options for `proxies`, credentials removed.
    static func proxyOptions(_ proxies: ProxySettings) -> [String: JSONValue] {
        let shown = proxies.redacted
        var options: [String: JSONValue] = [:]
        if let all = shown.http, all == shown.https {
            options["all-proxy"] = .string(all)
        } else {
            if let http = shown.http { options["http-proxy"] = .string(http) }
            if let https = shown.https { options["https-proxy"] = .string(https) }
        }
        if let noProxy = shown.noProxy { options["no-proxy"] = .string(noProxy) }
        return options
    }

    /// What every download inherits unless it sets its own.
    var inherited: [String: JSONValue] {
        Self.proxyOptions(proxies).merging([
            "split": .string(String(transfer.split)),
            "max-connection-per-server": .string(String(transfer.maxHostConnections)),
            "min-split-size": .string(String(transfer.minSplitSize)),
            "max-download-limit": Aria2Methods.rateValue(transfer.rate),
            "max-tries": .string(String(maxTries)),
            "timeout": .string(String(transfer.stallTimeout)),
            "connect-timeout": .string(String(transfer.connectTimeout)),
            // Behaviour haul always has.
            "continue": "true",
            "always-resume": "true",
            "allow-overwrite": "false",
            "auto-file-renaming": "true",
        ]) { _, own in own }
    }

    /// `getOption` for one download: the inherited settings with its own over them.
    func options(of row: QueueSnapshot.Row) -> [String: JSONValue] {
        let task = row.task
        var options = inherited
        options["dir"] = .string(task.directory)
        if let name = task.requestedName ?? task.fileName { options["out"] = .string(name) }
        if !task.headers.isEmpty { options["header"] = .array(task.headers.map { .string(SecretText.header($0)) }) }
        for (key, prefix) in [("referer", "referer:"), ("user-agent", "user-agent:")] {
            if let line = task.headers.last(where: { $0.lowercased().hasPrefix(prefix) }) {
                options[key] = .string(String(line.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces))
            }
        }
        if let checksum = task.checksum { options["checksum"] = .string(checksum.description) }
        if let proxies = task.requestOptions.proxies {
            for key in ["all-proxy", "http-proxy", "https-proxy", "no-proxy"] { options[key] = nil }
            options.merge(Self.proxyOptions(proxies)) { _, own in own }
        }
        if let cookies = task.requestOptions.cookiesFile { options["load-cookies"] = .string(cookies) }
        if let netrc = task.requestOptions.netrcFile { options["netrc-path"] = .string(netrc) }
        if task.requestOptions.allowOverwrite == true { options["allow-overwrite"] = "true" }
        if task.requestOptions.streamOff == true { options["stream"] = "off" }
        if let quality = task.requestOptions.streamQuality { options["stream-quality"] = .string(quality) }
        if let remux = task.requestOptions.streamRemux { options["stream-remux"] = .string(remux) }
        options["split"] = .string(String(row.split))
        if let limit = row.rateLimit { options["max-download-limit"] = Aria2Methods.rateValue(limit) }
        return options
    }
}
