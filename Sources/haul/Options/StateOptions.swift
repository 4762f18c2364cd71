import ArgumentParser

/// Where the queue lives.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "Directory of the queue database (default $XDG_STATE_HOME/haul).")
    var stateDirectory: String?
}
