import ArgumentParser
import HaulCore

/// Remote control and hooks (DESIGN §6), as the command line gives them (read through `RunSettings`).
struct RemoteOptions: ParsableArguments {
    @Option(name: .customLong(OptionKey.rpcListen.name), help: OptionKey.rpcListen.argumentHelp)
    var rpcListen: String?

    @Option(name: .customLong(OptionKey.rpcSecretFile.name), help: OptionKey.rpcSecretFile.argumentHelp,
            completion: OptionKey.rpcSecretFile.completion)
    var rpcSecretFile: String?

    @Option(name: .customLong(OptionKey.rpcAllowOrigin.name), help: OptionKey.rpcAllowOrigin.argumentHelp)
    var rpcAllowOrigin: String?

    @Option(name: .customLong(OptionKey.rpcAllowedDir.name), help: OptionKey.rpcAllowedDir.argumentHelp,
            completion: OptionKey.rpcAllowedDir.completion)
    var rpcAllowedDirectories: [String] = []

    @Option(name: .customLong(OptionKey.onDownloadComplete.name), help: OptionKey.onDownloadComplete.argumentHelp)
    var onDownloadComplete: String?

    @Option(name: .customLong(OptionKey.onDownloadError.name), help: OptionKey.onDownloadError.argumentHelp)
    var onDownloadError: String?

    @Option(name: .customLong(OptionKey.onLinkExpired.name), help: OptionKey.onLinkExpired.argumentHelp)
    var onLinkExpired: String?

    @Flag(name: .customLong(OptionKey.notify.name), inversion: .prefixedNo, help: OptionKey.notify.argumentHelp)
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
