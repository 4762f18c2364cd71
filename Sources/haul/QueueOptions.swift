import ArgumentParser
import Foundation
import HaulCore

/// Where the queue lives.
struct StateOptions: ParsableArguments {
    @Option(name: .customLong("state-dir"), help: "Directory of the queue database (default $XDG_STATE_HOME/haul).")
    var stateDirectory: String?
}

/// What to add and where it goes.
struct AddOptions: ParsableArguments {
    @Argument(help: "http(s) URLs to download.")
    var urls: [String] = []

    @Option(name: [.short, .customLong("dir")], help: "Download directory (default: the current directory).")
    var directory: String?

    @Option(name: [.short, .customLong("output")], help: "File name for the single URL given.")
    var output: String?

    @Option(name: [.short, .customLong("input-file")], help: "File of URLs in aria2's format (out=, dir=, checksum= options).")
    var inputFile: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "Extra request header \"K: V\" (repeatable).")
    var headers: [String] = []

    @Option(help: "Expected digest of the finished file: sha-256=HEX.")
    var checksum: String?

    /// The intake for these options: tasks go into `-d` (default: the current directory).
    var intake: TaskIntake { TaskIntake(defaultDirectory: directory ?? FileManager.default.currentDirectoryPath) }

    /// The tasks these options describe, validated by the core intake; throws a ValidationError with its message.
    ///
    /// `-d` is checked even without URLs: a path that names a file is a usage error before anything runs.
    func newTasks() throws -> [NewTask] {
        let intake = intake
        var tasks: [NewTask]
        do {
            _ = try intake.resolvedDirectory(nil)
            tasks = try intake.commandLineTasks(
                urls: urls, output: output, headers: headers, checksum: checksum, hasInputFile: inputFile != nil)
        } catch {
            throw ValidationError(error.description)
        }
        if let inputFile {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: inputFile, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let data = FileManager.default.contents(atPath: inputFile) else {
                throw ValidationError("cannot read input file '\(inputFile)' (missing, a directory, or not readable)")
            }
            let parsed: (tasks: [NewTask], warnings: [String])
            do {
                parsed = try InputFile.parse(data, intake: intake, headers: headers, checksum: checksum)
            } catch {
                throw ValidationError("\(inputFile): \(error)")
            }
            for warning in parsed.warnings { note("\(inputFile): \(warning)") }
            tasks += parsed.tasks
        }
        return tasks
    }
}

/// How transfers behave.
struct TransferFlags: ParsableArguments {
    // `.unconditional` takes `-3` as the value, so a negative number gets the range message, not "Missing value".
    @Option(name: [.customShort("j"), .customLong("max-concurrent")], parsing: .unconditional, help: "Tasks running at once.")
    var maxConcurrent: Int?

    @Option(name: .customLong("limit-rate"), help: "Receive limit per task, e.g. 500K, 2M, 1.5G (bytes/s).")
    var limitRate: String?

    @Option(parsing: .unconditional, help: "Retries of a transient error before a task fails.")
    var retries: Int = 5

    @Option(parsing: .unconditional, help: "Seconds without data before a transfer counts as stalled and is retried.")
    var timeout: Int = 30

    @Option(name: .customLong("ca-cert"), help: "CA bundle to verify servers with instead of the system one (verification stays on).")
    var caCertificate: String?

    @Option(name: .customLong("disk-reserve"), help: "Free space to keep on the download filesystem, e.g. 64M (a task pauses below it).")
    var diskReserve: String = "64M"

    @Option(name: [.customShort("s"), .customLong("split")], parsing: .unconditional,
            help: "Connections per download (servers that cap each connection go faster with more).")
    var split: Int = 4

    @Option(name: .customLong("min-split-size"), help: "Smallest range one connection is given, e.g. 4M; smaller files use one connection.")
    var minSplitSize: String = "4M"

    @Option(name: .customLong("max-overall-download-limit"), help: "Cap on all downloads together, e.g. 10M (bytes/s; 0 for none).")
    var maxOverallDownloadLimit: String?

    /// The overall cap asked for; nil for none.
    func overallLimit() throws -> RateLimit? {
        try maxOverallDownloadLimit.flatMap { try Self.rate($0, option: "--max-overall-download-limit") }
    }

    /// `text` as a rate; its error as a usage error.
    static func rate(_ text: String, option: String?) throws -> RateLimit? {
        do {
            return try RateLimit.parse(text, option: option)
        } catch {
            throw ValidationError(error.description)
        }
    }

    @Option(name: .customLong("max-host-connections"), parsing: .unconditional,
            help: "Connections open to one host across all downloads.")
    var maxHostConnections: Int = 8

    func transferOptions() throws -> TransferOptions {
        guard timeout >= 1 else { throw ValidationError("--timeout must be at least 1 second, got \(timeout)") }
        let limits = ConcurrencyLimit.range
        if let maxConcurrent, !limits.contains(maxConcurrent) {
            throw ValidationError("-j/--max-concurrent must be between \(limits.lowerBound) and \(limits.upperBound), got \(maxConcurrent)")
        }
        guard retries >= 0 else { throw ValidationError("--retries must be 0 or more, got \(retries)") }
        let rate = try limitRate.flatMap { try Self.rate($0, option: "--limit-rate") }
        guard let reserve = ByteSize.parse(diskReserve) else {
            throw ValidationError("--disk-reserve '\(diskReserve)' is not a size like 64M, 1G or 0")
        }
        if let caCertificate, !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw ValidationError("--ca-cert '\(caCertificate)' cannot be read")
        }
        guard SplitLimit.range.contains(split) else {
            throw ValidationError("-s/--split must be between \(SplitLimit.range.lowerBound) and \(SplitLimit.range.upperBound), got \(split)")
        }
        guard (1...64).contains(maxHostConnections) else {
            throw ValidationError("--max-host-connections must be between 1 and 64, got \(maxHostConnections)")
        }
        guard let minimum = ByteSize.parse(minSplitSize), minimum >= 1 << 20 else {
            throw ValidationError("--min-split-size '\(minSplitSize)' is not a size of at least 1M, like 4M or 20M")
        }
        return TransferOptions(
            rateLimit: rate?.bytesPerSecond, stallTimeout: timeout, caCertificate: caCertificate, diskReserve: reserve,
            split: min(split, maxHostConnections), minSplitSize: minimum, maxHostConnections: maxHostConnections)
    }
}

/// `path` made absolute against the current directory, the way the intake resolves `-d`.
func absolutePath(_ path: String) -> String {
    TaskIntake(defaultDirectory: path).defaultDirectory
}
