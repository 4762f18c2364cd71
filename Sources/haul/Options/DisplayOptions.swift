import ArgumentParser
import HaulCore

/// How a run shows itself, as the command line gives it (read through `RunSettings`).
struct DisplayOptions: ParsableArguments {
    @Flag(help: "Run without the live list until nothing is waiting or running.")
    var headless = false

    @Option(help: "Colour theme: a name from themes/ or a path to a .toml file.")
    var theme: String?

    @Flag(name: .customLong(OptionKey.noColor.name), help: "Monochrome (also when NO_COLOR is set).")
    var noColor = false

    /// The settings these options give, by key.
    var commandLine: [OptionKey: SettingValue] {
        var values: [OptionKey: SettingValue] = [:]
        values.given(.headless, headless ? .bool(true) : nil)
        values.given(.theme, theme.map(SettingValue.string))
        values.given(.noColor, noColor ? .bool(true) : nil)
        return values
    }
}
