import ArgumentParser
import HaulCore

/// Remote control and hooks (DESIGN §6), as the command line gives them (read through `RunSettings`).
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

    @Option(name: .customLong("on-link-expired"), help: "Command run (no shell) with GID and link when a link answers 401, 403, 404 or 410; a link it prints replaces the task's (as set-url), and the task fails only if none comes.")
    var onLinkExpired: String?

    @Flag(inversion: .prefixedNo, help: "A desktop notification (notify-send) each time a download completes or fails, when a session bus is there.")
    var notify: Bool?

    /// The settings these options give, by key.
    var commandLine: [String: SettingValue] {
        var values: [String: SettingValue] = [:]
        values.given("rpc-listen", rpcListen.map(SettingValue.string))
        values.given("rpc-secret-file", rpcSecretFile.map(SettingValue.string))
        values.given("rpc-allow-origin", rpcAllowOrigin.map(SettingValue.string))
        values.given("rpc-allowed-dir", rpcAllowedDirectories.isEmpty ? nil : .strings(rpcAllowedDirectories))
        values.given("on-download-complete", onDownloadComplete.map(SettingValue.string))
        values.given("on-download-error", onDownloadError.map(SettingValue.string))
        values.given("on-link-expired", onLinkExpired.map(SettingValue.string))
        values.given("notify", notify.map(SettingValue.bool))
        return values
    }
}
