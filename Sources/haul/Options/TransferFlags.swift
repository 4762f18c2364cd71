import ArgumentParser
import Foundation
import HaulCore

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
        try maxOverallDownloadLimit.flatMap { try RateLimit.parseArgument($0, option: "--max-overall-download-limit") }
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
        let rate = try limitRate.flatMap { try RateLimit.parseArgument($0, option: "--limit-rate") }
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
        var options = TransferOptions(
            rateLimit: rate?.bytesPerSecond, stallTimeout: timeout, caCertificate: caCertificate, diskReserve: reserve,
            split: min(split, maxHostConnections), minSplitSize: minimum, maxHostConnections: maxHostConnections)
        // A stream's segment retries alone as many times as a task would.
        options.segmentRetries = retries
        return options
    }
}
