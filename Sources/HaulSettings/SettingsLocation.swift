/// Where the settings file is: `--config FILE`, else `$XDG_CONFIG_HOME/haul/config.toml`, else
/// `~/.config/haul/config.toml` (DESIGN §10).
public enum SettingsLocation {
    /// The path to read and whether it may be missing (only the default location may).
    public static func path(explicit: String?, environment: [String: String]) -> (path: String, optional: Bool)? {
        if let explicit { return (explicit, false) }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return (config + "/haul/config.toml", true) }
        if let home = environment["HOME"], home.hasPrefix("/") { return (home + "/.config/haul/config.toml", true) }
        return nil
    }
}
