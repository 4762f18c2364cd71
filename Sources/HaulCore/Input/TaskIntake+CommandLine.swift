/// The command line's shape: several URLs sharing `-o`, `-H` and `--checksum`.
extension TaskIntake {
    /// Tasks for `haul URL... [-o NAME] [--mirror URL]... [-H "K: V"]... [--checksum sha-256=HEX]`, into the default directory.
    ///
    /// An output name and mirrors need exactly one URL, and none from an input file (`hasInputFile`).
    public func commandLineTasks(
        urls: [String], output: String? = nil, headers: [String] = [], checksum: String? = nil,
        access: AccessRequest = AccessRequest(), transfer: TaskRequest.Transfer = TaskRequest.Transfer(),
        hasInputFile: Bool = false, mirrors: [String] = []
    ) throws(IntakeError) -> [NewTask] {
        if output != nil, urls.count != 1 || hasInputFile { throw .outputNeedsOneURL }
        if !mirrors.isEmpty, urls.count != 1 || hasInputFile { throw .mirrorNeedsOneURL }
        // Shared options are checked even with no URL, so a bad -H is reported before any input file.
        try HeaderRule.check(all: headers)
        if let checksum { _ = try Self.checksum(checksum) }
        _ = try requestOptions(access)
        return try newTasks(urls.map { url in
            var request = TaskRequest(url: url, output: output, headers: headers, checksum: checksum)
            request.access = access
            request.transfer = transfer
            request.mirrors = mirrors
            return request
        })
    }
}
