import ArgumentParser
import Foundation
import HaulCore
import HaulRemote

/// Remote control and hooks (DESIGN §6).
struct RemoteOptions: ParsableArguments {
    @Option(name: .customLong("rpc-listen"), help: "Also serve aria2 JSON-RPC on TCP [HOST:]PORT or [IPV6]:PORT (host 127.0.0.1 unless given); a secret is always required.")
    var rpcListen: String?

    @Option(name: .customLong("rpc-secret-file"), help: "File holding the RPC secret (else $HAUL_RPC_SECRET, else one made in the state directory).")
    var rpcSecretFile: String?

    @Option(name: .customLong("rpc-allow-origin"), help: "Send CORS headers to this web origin only (e.g. an AriaNg page).")
    var rpcAllowOrigin: String?

    @Option(name: .customLong("rpc-allowed-dir"), help: "A directory RPC clients may download into besides the default one (repeatable).")
    var rpcAllowedDirectories: [String] = []

    @Option(name: .customLong("on-download-complete"), help: "Command run (no shell) with GID, 1 and the file's path when a download completes.")
    var onDownloadComplete: String?

    @Option(name: .customLong("on-download-error"), help: "Command run (no shell) with GID, 1 and the file's path when a download fails.")
    var onDownloadError: String?

    @Option(name: .customLong("on-link-expired"), help: "Command run (no shell) with GID and link when a link answers 401, 403, 404 or 410 after bytes were fetched; a link it prints replaces the task's (as set-url).")
    var onLinkExpired: String?

    @Flag(help: "A desktop notification (notify-send) each time a download completes or fails, when a session bus is there.")
    var notify = false

    /// The hooks asked for; `--notify` without a session bus or notify-send is said once, through `report`.
    func hooks(report: (String) -> Void) -> DownloadHooks {
        var notifications: DesktopNotification?
        if notify {
            switch DesktopNotification.available(environment: ProcessInfo.processInfo.environment) {
            case let .success(available): notifications = available
            case let .failure(reason): report(reason.description)
            }
        }
        return DownloadHooks(onComplete: onDownloadComplete, onError: onDownloadError, notifications: notifications)
    }
    var linkRenewal: LinkRenewal? { onLinkExpired.map { LinkRenewal(command: $0) } }

    /// The TCP listener asked for, checked.
    func listener() throws -> RPCServerConfiguration.TCPListener? {
        guard let rpcListen else { return nil }
        do {
            return try RPCServerConfiguration.TCPListener(parsing: rpcListen)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        _ = try listener()
        for command in [onDownloadComplete, onDownloadError, onLinkExpired].compactMap({ $0 }) where command.isEmpty {
            throw ValidationError("a hook command cannot be empty")
        }
        if let rpcSecretFile, !FileManager.default.isReadableFile(atPath: rpcSecretFile) {
            throw ValidationError("--rpc-secret-file '\(rpcSecretFile)' cannot be read")
        }
    }
}
