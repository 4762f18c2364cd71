import ArgumentParser
import Foundation
import HaulCore

/// How transfers behave, from the resolved settings (values already passed their keys' checks).
extension RunSettings {
    func transferOptions() throws -> TransferOptions {
        if let caCertificate = string("ca-cert"), !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw problem("ca-cert", "'\(caCertificate)' cannot be read")
        }
        let (split, rateLimit) = try taskTransferOptions()
        let maxHostConnections = required(int("max-host-connections"), "max-host-connections")
        var options = TransferOptions(
            rateLimit: rateLimit, stallTimeout: required(int("timeout"), "timeout"),
            caCertificate: string("ca-cert").map { absolutePath($0) }, diskReserve: required(try size("disk-reserve"), "disk-reserve"),
            split: min(split, maxHostConnections), minSplitSize: required(try size("min-split-size"), "min-split-size"),
            maxHostConnections: maxHostConnections)
        // A stream's segment retries alone as many times as a task would.
        options.segmentRetries = retryPolicy.maxRetries
        options.confinementRoots = [downloadDirectory] + strings("rpc-allowed-dir").map { absolutePath($0) } + ruleDirectories
        return options
    }

    /// The connections and the receive cap each task gets (`-s`, `--limit-rate`), checked as the run checks them.
    func taskTransferOptions() throws -> (split: Int, rateLimit: Int64?) {
        (required(int("split"), "split"), try rate("limit-rate")?.bytesPerSecond)
    }

    /// The overall cap; nil for none.
    func overallLimit() throws -> RateLimit? {
        try rate("max-overall-download-limit")
    }

    var retryPolicy: RetryPolicy { RetryPolicy(maxRetries: required(int("retries"), "retries")) }

    /// The concurrency limit: the command line's or the file's; without either, the one last set (by -j or the
    /// list's < and >), else the default.
    func maxConcurrent(stored: Int?) -> Int {
        if resolution.origin("max-concurrent") == .builtIn, let stored { return stored }
        return int("max-concurrent") ?? ConcurrencyLimit.defaultValue
    }

    /// A setting with a built-in default (`SettingKeys`), which the resolution always gives.
    private func required<T>(_ value: T?, _ name: String) -> T {
        guard let value else { preconditionFailure("\(name) has a built-in default") }
        return value
    }

    private func rate(_ name: String) throws -> RateLimit? {
        guard let text = string(name) else { return nil }
        do {
            return try RateLimit.parse(text)
        } catch {
            throw problem(name, error.description)
        }
    }

    private func size(_ name: String) throws -> Int64? {
        guard let text = string(name) else { return nil }
        guard let bytes = ByteSize.parse(text) else { throw problem(name, "'\(text)' is not a size like 64M, 1G or 0") }
        return bytes
    }
}
