/// Raw input for one new task, as a front end received it: nothing checked yet.
///
/// It mirrors aria2's `addUri([url], {out, dir, header, checksum})`, so the command line, an input
/// file entry, the prompt and an RPC call all fill the same fields and `TaskIntake` checks them once.
public struct TaskRequest: Sendable, Equatable {
    /// The URL as typed.
    public var url: String
    /// `-o` / `out=`: a plain file name, or nil to take the name from the server or the URL.
    public var output: String?
    /// `-d` / `dir=`: absolute, `~/…`, or relative to the intake's default directory; nil for the default.
    public var directory: String?
    /// `-H` / `header=` lines, `Name: value` each, in order.
    public var headers: [String]
    /// `--checksum` / `checksum=`: `sha-256=HEX`.
    public var checksum: String?
    /// `--mirror` / further TAB-separated links / further `uris`: other links serving the same file.
    public var mirrors: [String] = []

    public init(url: String, output: String? = nil, directory: String? = nil, headers: [String] = [], checksum: String? = nil) {
        self.url = url
        self.output = output
        self.directory = directory
        self.headers = headers
        self.checksum = checksum
    }
}
