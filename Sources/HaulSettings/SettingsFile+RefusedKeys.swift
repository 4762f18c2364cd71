extension SettingsFile {
    /// Names that are options of a run but never keys, and why: the answer an "unknown key" would not give.
    public static let refused: [String: String] = [
        "rpc-secret": "the RPC secret is never kept in the settings file; put it in a file named by rpc-secret-file "
            + "(or --rpc-secret-file), or in $HAUL_RPC_SECRET",
        "state-dir": "the queue's directory is chosen by --state-dir or $XDG_STATE_HOME, so that every haul command "
            + "finds the same queue",
        "output": "it names one download's file; give it with -o on the command line",
        "input-file": "it names one run's links; give it with -i on the command line",
        "checksum": "it belongs to one download; give it with --checksum on the command line",
        "mirror": "it belongs to one download; give it with --mirror on the command line",
        "json": "it chooses one run's output; give it on the command line",
        "keep-running": "it chooses one run's end; give it on the command line (haul daemon sets it)",
        "config": "the settings file cannot name another one",
    ]
}
