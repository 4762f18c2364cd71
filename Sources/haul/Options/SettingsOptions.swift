import ArgumentParser

/// Which settings file a run reads (DESIGN §10).
struct SettingsOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "Settings file (default $XDG_CONFIG_HOME/haul/config.toml, else ~/.config/haul/config.toml).", valueName: "file"), completion: .file())
    var config: String?
}
