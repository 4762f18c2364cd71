import ArgumentParser

/// Where the queue lives.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Directory of the queue database (default $XDG_STATE_HOME/haul).", valueName: "dir"),
            completion: .directory)
    var stateDirectory: String?
}
