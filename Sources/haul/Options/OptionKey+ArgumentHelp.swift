import ArgumentParser
import HaulCore

extension OptionKey {
    /// The option's help (`OptionRegistry`) as the argument parser shows it, in `--help`, the man page and completions.
    var argumentHelp: ArgumentHelp {
        let help = OptionRegistry[self].help
        return ArgumentHelp(help.abstract, discussion: help.discussion, valueName: help.valueName)
    }
}
