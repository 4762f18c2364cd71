import ArgumentParser
import Foundation
import HaulCore
import HaulRemote

/// Remote control and hooks, from the resolved settings.
extension RunSettings {
    /// What RPC clients read of these settings (`getGlobalOption`, `getOption`); `proxies` as tasks get them.
    func aria2Options(proxies: ProxySettings) -> Aria2RunOptions {
        var values: [OptionKey: SettingValue] = [:]
        for entry in resolution.entries { values[entry.key.key] = entry.value }
        return Aria2RunOptions(values: values, proxies: proxies, directory: downloadDirectory)
    }

    /// The hooks asked for; `notify` without a session bus or notify-send is said once, through `report`.
    func hooks(report: (String) -> Void) -> DownloadHooks {
        var notifications: DesktopNotification?
        if bool(.notify) {
            switch DesktopNotification.available(environment: ProcessInfo.processInfo.environment) {
            case let .success(available): notifications = available
            case let .failure(reason): report(reason.description)
            }
        }
        return DownloadHooks(onComplete: string(.onDownloadComplete), onError: string(.onDownloadError), notifications: notifications)
    }

    var linkRenewal: LinkRenewal? { string(.onLinkExpired).map { LinkRenewal(command: $0) } }

    /// The yt-dlp asked about web pages (`--extractor`), or why there is none.
    var pageExtraction: PageExtraction {
        PageExtraction.resolve(string(.extractor), path: ProcessInfo.processInfo.environment["PATH"])
    }

    /// The TCP listener asked for, checked.
    func listener() throws -> RPCServerConfiguration.TCPListener? {
        guard let text = string(.rpcListen) else { return nil }
        do {
            return try RPCServerConfiguration.TCPListener(parsing: text)
        } catch {
            throw problem(.rpcListen, error.description)
        }
    }

    var rpcAllowedDirectories: [String] { strings(.rpcAllowedDir).map { absolutePath($0) } }

    /// The remote settings, checked before anything runs.
    func validateRemote() throws {
        _ = try listener()
        if let file = string(.rpcSecretFile), !FileManager.default.isReadableFile(atPath: file) {
            throw problem(.rpcSecretFile, "'\(file)' cannot be read")
        }
    }
}
