import ArgumentParser
import HaulCore

/// How a run shows itself, as the command line gives it (read through `RunSettings`).
struct DisplayOptions: ParsableArguments {
    @Flag(name: .customLong(OptionKey.headless.name), help: OptionKey.headless.argumentHelp)
    var headless = false

    @Option(name: .customLong(OptionKey.theme.name), help: OptionKey.theme.argumentHelp, completion: OptionKey.theme.completion)
    var theme: String?

    @Flag(name: .customLong(OptionKey.noColor.name), help: OptionKey.noColor.argumentHelp)
    var noColor = false

    @Flag(name: .customLong(OptionKey.noMouse.name), help: OptionKey.noMouse.argumentHelp)
    var noMouse = false

    /// The settings these options give, by key.
    var commandLine: [OptionKey: SettingValue] {
        var values: [OptionKey: SettingValue] = [:]
        values.given(.headless, headless ? .bool(true) : nil)
        values.given(.theme, theme.map(SettingValue.string))
        values.given(.noColor, noColor ? .bool(true) : nil)
        values.given(.noMouse, noMouse ? .bool(true) : nil)
        return values
    }
}
