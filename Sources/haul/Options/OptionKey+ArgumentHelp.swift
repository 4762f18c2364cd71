import ArgumentParser
import HaulCore

extension OptionKey {
    /// The option's help (`OptionRegistry`) as the argument parser shows it, in `--help`, the man page and completions.
    var argumentHelp: ArgumentHelp {
        let definition = OptionRegistry[self]
        let valueName = definition.kind == .bool ? nil : definition.valueName
        return ArgumentHelp(definition.help.abstract, discussion: definition.help.discussion, valueName: valueName)
    }
}
