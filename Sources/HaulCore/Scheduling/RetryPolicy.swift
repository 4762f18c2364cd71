/// Decides what happens after a transfer attempt failed: retry after a back-off, pause, or fail.
///
/// Pure and deterministic (no jitter): the controller schedules what it returns.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt (`--retries`); 0 means a transient error fails at once.
    public var maxRetries: Int
    /// Back-off before the first retry, in seconds; it doubles with each further attempt.
    public var baseDelay: Double
    /// Longest back-off this policy picks by itself, in seconds.
    public var maxDelay: Double
    /// Longest wait a server's `Retry-After` may impose, in seconds; longer requests are cut to this.
    public var maxRetryAfter: Double = 3600

    public init(maxRetries: Int = 5, baseDelay: Double = 1, maxDelay: Double = 60) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// What to do with a task.
    public enum Decision: Sendable, Equatable {
        /// Put the task back to `waiting` and start it again after this many seconds.
        case retry(after: Double)
        /// Stop for good; the user may retry by hand.
        case fail
        /// Keep the bytes and wait for the user (the disk is full).
        case pause
    }

    /// The decision after attempt number `attempt` (1-based) failed with `error`.
    ///
    /// - `error.pausesTask` → `.pause`.
    /// - A transient error with retries left (`attempt <= maxRetries`) → `.retry` after
    ///   `baseDelay · 2^(attempt-1)` capped at `maxDelay`, or after the server's `Retry-After` when that is
    ///   longer (itself capped at `maxRetryAfter`).
    /// - Anything else → `.fail`.
    public func decide(after error: DownloadError, attempt: Int) -> Decision {
        if error.pausesTask { return .pause }
        guard error.isTransient, attempt <= maxRetries else { return .fail }
        return .retry(after: delay(attempt: attempt, retryAfter: error.retryAfter))
    }

    /// Seconds to wait before the attempt after `attempt`, honouring the server's wish when it is longer.
    public func delay(attempt: Int, retryAfter: Double? = nil) -> Double {
        let exponent = Double(max(attempt, 1) - 1)
        var delay = baseDelay > 0 ? min(baseDelay * pow2(exponent), max(maxDelay, 0)) : 0
        if let retryAfter, retryAfter.isFinite {
            delay = max(delay, min(max(retryAfter, 0), maxRetryAfter))
        }
        return delay
    }

    /// 2^exponent without Foundation; saturates to infinity, which the cap then removes.
    private func pow2(_ exponent: Double) -> Double {
        exponent >= 1024 ? .infinity : Double(sign: .plus, exponent: Int(exponent), significand: 1)
    }
}
