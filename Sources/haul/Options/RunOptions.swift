import ArgumentParser
import HaulCore

/// Every option a run reads its settings from, with the settings file: `haul`, `haul daemon` and `haul config`
/// take the same ones.
struct RunOptions: ParsableArguments {
    @OptionGroup var add: AddOptions
    @OptionGroup var state: StateOptions
    @OptionGroup var transfer: TransferFlags
    @OptionGroup var remote: RemoteOptions
    @OptionGroup var settingsFile: SettingsOptions

    /// The settings every option given here names, by key.
    var commandLine: [OptionKey: SettingValue] {
        add.commandLine.merging(transfer.commandLine) { given, _ in given }.merging(remote.commandLine) { given, _ in given }
    }

    /// The command line over the settings file over the defaults; `extra` adds options of the command itself.
    func settings(extra: [OptionKey: SettingValue] = [:]) throws -> RunSettings {
        try RunSettings.load(config: settingsFile.config, commandLine: commandLine.merging(extra) { given, _ in given })
    }
}
