import ArgumentParser
import HaulCore

extension OptionKey {
    /// What a shell offers after the option, from the registry's `OptionValues` (DESIGN §11): files, directories,
    /// the few words it takes, or the themes found.
    var completion: CompletionKind {
        switch OptionRegistry[self].values {
        case .text: .default
        case .file: .file()
        case .directory: .directory
        case let .choices(words): .list(words)
        case .theme: .custom(ThemeCompletion.candidates)
        }
    }
}
