import ArgumentParser
import Foundation

/// Where the queue lives.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Directory of the queue database (default $XDG_STATE_HOME/haul).", valueName: "dir"),
            completion: .directory)
    var stateDirectory: String?

    /// What a hint repeats so the command it names finds this queue: ` --state-dir DIR` (quoted for a shell when
    /// it must be), or nothing for the default one.
    var repeated: String {
        guard let stateDirectory, !stateDirectory.isEmpty else { return "" }
        let plain = stateDirectory.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_./~+-=:,@%".contains($0)) }
        return " --state-dir " + (plain ? stateDirectory : "'" + stateDirectory.replacingOccurrences(of: "'", with: "'\\''") + "'")
    }
}
