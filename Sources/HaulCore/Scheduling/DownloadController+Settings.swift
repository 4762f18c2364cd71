extension DownloadController {
    /// New run settings from the settings file read again (`haul config --reload`, SIGHUP): the concurrency and
    /// the overall cap at once, a changed per-task cap on the transfers that follow the run's cap at once, and
    /// the rest (retries, timeouts, connections) for transfers that start from now on. `maxConcurrent` nil
    /// keeps the limit as it is.
    public func applySettings(
        maxConcurrent: Int?, retryPolicy: RetryPolicy, transferOptions: TransferOptions, overallLimit: RateLimit?
    ) {
        loadIfNeeded()
        if let maxConcurrent { configuration.maxConcurrent = ConcurrencyLimit.clamped(maxConcurrent) }
        let previousRate = configuration.transferOptions.rateLimit
        configuration.retryPolicy = retryPolicy
        configuration.transferOptions = transferOptions
        configuration.overallLimit = overallLimit
        driver.send(.setOverallLimit(effectiveOverallLimit))
        if previousRate != transferOptions.rateLimit {
            // Only transfers that follow the run's cap: not one set live, nor one a settings rule gave.
            for id in runtime.inFlight where (tasks[id].map { runtime[id].rate(of: $0) } ?? runtime[id].rate) == .inherit {
                driver.send(.setTaskLimit(id, transferOptions.rateLimit))
            }
        }
        pacer.rowsDidChange()
        fillSlots()
        publish()
    }
}
