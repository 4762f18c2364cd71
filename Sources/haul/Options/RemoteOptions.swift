import ArgumentParser
import HaulCore

/// Remote control and hooks (DESIGN §6), as the command line gives them (read through `RunSettings`).
struct RemoteOptions: ParsableArguments {
    @Option(name: .customLong(OptionKey.rpcListen.name), help: "Also serve aria2 JSON-RPC on TCP [HOST:]PORT or [IPV6]:PORT (host 127.0.0.1 unless given); a secret is always required.")
    var rpcListen: String?

    @Option(name: .customLong(OptionKey.rpcSecretFile.name), help: "File holding the RPC secret (else $HAUL_RPC_SECRET, else one made in the state directory).")
    var rpcSecretFile: String?

    @Option(name: .customLong(OptionKey.rpcAllowOrigin.name), help: "Send CORS headers to this web origin only (e.g. an AriaNg page).")
    var rpcAllowOrigin: String?

    @Option(name: .customLong(OptionKey.rpcAllowedDir.name), help: "A directory RPC clients may download into besides the default one (repeatable).")
    var rpcAllowedDirectories: [String] = []

    @Option(name: .customLong(OptionKey.onDownloadComplete.name), help: "Command run (no shell) with GID, 1 and the file's path when a download completes.")
    var onDownloadComplete: String?

    @Option(name: .customLong(OptionKey.onDownloadError.name), help: "Command run (no shell) with GID, 1 and the file's path when a download fails.")
    var onDownloadError: String?

    @Option(name: .customLong(OptionKey.onLinkExpired.name), help: "Command run (no shell) with GID and link when a link answers 401, 403, 404 or 410; a link it prints replaces the task's (as set-url), and the task fails only if none comes.")
    var onLinkExpired: String?

    @Flag(inversion: .prefixedNo, help: "A desktop notification (notify-send) each time a download completes or fails, when a session bus is there.")
    var notify: Bool?

    /// The settings these options give, by key.
    var commandLine: [OptionKey: SettingValue] {
        var values: [OptionKey: SettingValue] = [:]
        values.given(.rpcListen, rpcListen.map(SettingValue.string))
        values.given(.rpcSecretFile, rpcSecretFile.map(SettingValue.string))
        values.given(.rpcAllowOrigin, rpcAllowOrigin.map(SettingValue.string))
        values.given(.rpcAllowedDir, rpcAllowedDirectories.isEmpty ? nil : .strings(rpcAllowedDirectories))
        values.given(.onDownloadComplete, onDownloadComplete.map(SettingValue.string))
        values.given(.onDownloadError, onDownloadError.map(SettingValue.string))
        values.given(.onLinkExpired, onLinkExpired.map(SettingValue.string))
        values.given(.notify, notify.map(SettingValue.bool))
        return values
    }
}
