import ArgumentParser
import Foundation
import HaulCore

/// How transfers behave, from the resolved settings (values already passed their keys' checks).
extension RunSettings {
    func transferOptions() throws -> TransferOptions {
        if let caCertificate = string(.caCert), !FileManager.default.isReadableFile(atPath: caCertificate) {
            throw problem(.caCert, "'\(caCertificate)' cannot be read")
        }
        let (split, rateLimit) = try taskTransferOptions()
        let maxHostConnections = required(int(.maxHostConnections), .maxHostConnections)
        var options = TransferOptions(
            rateLimit: rateLimit, stallTimeout: required(int(.timeout), .timeout),
            caCertificate: string(.caCert).map { absolutePath($0) }, diskReserve: required(try size(.diskReserve), .diskReserve),
            split: min(split, maxHostConnections), minSplitSize: required(try size(.minSplitSize), .minSplitSize),
            maxHostConnections: maxHostConnections)
        // A stream's segment retries alone as many times as a task would.
        options.segmentRetries = retryPolicy.maxRetries
        options.confinementRoots = [downloadDirectory] + strings(.rpcAllowedDir).map { absolutePath($0) } + ruleDirectories
        return options
    }

    /// The connections and the receive cap each task gets (`-s`, `--limit-rate`), checked as the run checks them.
    func taskTransferOptions() throws -> (split: Int, rateLimit: Int64?) {
        (required(int(.split), .split), try rate(.limitRate)?.bytesPerSecond)
    }

    /// How a new link is asked at once (`LinkProbe`): no longer than a resume's first answer would wait before it is
    /// retried, trusting the CA bundle downloads trust.
    var linkCheckOptions: TransferOptions {
        var options = Self.linkCheckTimeouts
        options.caCertificate = string(.caCert).map { absolutePath($0) }
        return options
    }

    static let linkCheckTimeouts = TransferOptions(stallTimeout: 15, connectTimeout: 10)

    /// The overall cap; nil for none.
    func overallLimit() throws -> RateLimit? {
        try rate(.maxOverallDownloadLimit)
    }

    var retryPolicy: RetryPolicy { RetryPolicy(maxRetries: required(int(.retries), .retries)) }

    /// The concurrency limit: the command line's or the file's; without either, the one last set (by -j or the
    /// list's < and >), else the default.
    func maxConcurrent(stored: Int?) -> Int {
        if resolution.origin(.maxConcurrent) == .builtIn, let stored { return stored }
        return int(.maxConcurrent) ?? ConcurrencyLimit.defaultValue
    }

    /// A setting with a built-in default (`OptionRegistry`), which the resolution always gives.
    private func required<T>(_ value: T?, _ name: OptionKey) -> T {
        guard let value else { preconditionFailure("\(name) has a built-in default") }
        return value
    }

    private func rate(_ name: OptionKey) throws -> RateLimit? {
        guard let text = string(name) else { return nil }
        do {
            return try RateLimit.parse(text)
        } catch {
            throw problem(name, error.description)
        }
    }

    private func size(_ name: OptionKey) throws -> Int64? {
        guard let text = string(name) else { return nil }
        guard let bytes = ByteSize.parse(text) else { throw problem(name, "'\(text)' is not a size like 64M, 1G or 0") }
        return bytes
    }
}
