import Testing
@testable import HaulCore

@Suite struct RetryPolicyTests {
    static let reset = DownloadError.network(code: 56, message: "Connection reset by peer", host: "example.org")

    static func status(_ code: Int, retryAfter: Double? = nil) -> DownloadError {
        .httpStatus(code: code, reason: nil, host: "example.org", retryAfter: retryAfter)
    }

    @Test(arguments: [
        (1, RetryPolicy.Decision.retry(after: 1)),
        (2, .retry(after: 2)),
        (3, .retry(after: 4)),
        (4, .retry(after: 8)),
        (5, .retry(after: 16)),
        (6, .fail),               // 5 retries used
        (100, .fail),
    ])
    func exponentialBackOffThenFail(attempt: Int, expected: RetryPolicy.Decision) {
        #expect(RetryPolicy().decide(after: Self.reset, attempt: attempt) == expected)
    }

    @Test func backOffIsCappedAtMaxDelay() {
        let policy = RetryPolicy(maxRetries: 100, baseDelay: 1, maxDelay: 60)
        #expect(policy.decide(after: Self.reset, attempt: 7) == .retry(after: 60))     // 64 → 60
        #expect(policy.decide(after: Self.reset, attempt: 99) == .retry(after: 60))
        #expect(policy.delay(attempt: 5000) == 60)
    }

    @Test func retryAfterWinsWhenLonger() {
        let policy = RetryPolicy()
        #expect(policy.decide(after: Self.status(503, retryAfter: 30), attempt: 1) == .retry(after: 30))
        #expect(policy.decide(after: Self.status(429, retryAfter: 120), attempt: 1) == .retry(after: 120))
        // Shorter than the back-off: the back-off stays.
        #expect(policy.decide(after: Self.status(503, retryAfter: 2), attempt: 4) == .retry(after: 8))
        #expect(policy.decide(after: Self.status(503, retryAfter: -10), attempt: 1) == .retry(after: 1))
    }

    @Test func retryAfterIsCapped() {
        var policy = RetryPolicy()
        #expect(policy.decide(after: Self.status(503, retryAfter: 86_400), attempt: 1) == .retry(after: 3600))
        policy.maxRetryAfter = 600
        #expect(policy.decide(after: Self.status(503, retryAfter: 86_400), attempt: 1) == .retry(after: 600))
        #expect(policy.decide(after: Self.status(503, retryAfter: .infinity), attempt: 1) == .retry(after: 1))
    }

    @Test(arguments: [
        (DownloadError.network(code: 7, message: "refused", host: "h"), RetryPolicy.Decision.retry(after: 1)),
        (.stalled(seconds: 30, host: "h"), .retry(after: 1)),
        (.badContentRange("asked for bytes from 5, got a range starting at 0"), .retry(after: 1)),
        (.remoteFileChanged("the ETag changed since the download began"), .retry(after: 1)),
        (.sizeMismatch(expected: 10, actual: 9), .retry(after: 1)),
        (RetryPolicyTests.status(500), .retry(after: 1)),
        (RetryPolicyTests.status(502), .retry(after: 1)),
        (RetryPolicyTests.status(408), .retry(after: 1)),
        (RetryPolicyTests.status(429), .retry(after: 1)),
        (RetryPolicyTests.status(404), .fail),
        (RetryPolicyTests.status(403), .fail),
        (RetryPolicyTests.status(410), .fail),
        (.invalidURL("x"), .fail),
        (.unsupportedScheme("ftp"), .fail),
        (.tls(message: "self-signed certificate", host: "h"), .fail),
        (.tooManyRedirects(host: "h"), .fail),
        (.checksumMismatch(expected: "a", actual: "b"), .fail),
        (.fileSystem(call: "openat", path: "/x", errno: 13, message: "Permission denied"), .fail),
        (.diskFull(path: "/x"), .pause),
        (.lowDiskSpace(path: "/x", freeBytes: 1, neededBytes: 0, reserveBytes: 64 << 20), .pause),
    ])
    func decisionByErrorKind(error: DownloadError, expected: RetryPolicy.Decision) {
        #expect(RetryPolicy().decide(after: error, attempt: 1) == expected)
    }

    @Test func diskFullPausesEvenWithNoRetriesLeft() {
        #expect(RetryPolicy(maxRetries: 0).decide(after: .diskFull(path: "/x"), attempt: 50) == .pause)
    }

    @Test func zeroRetriesFailsAtOnce() {
        #expect(RetryPolicy(maxRetries: 0).decide(after: Self.reset, attempt: 1) == .fail)
    }

    @Test func customBaseDelay() {
        let policy = RetryPolicy(maxRetries: 3, baseDelay: 0.5, maxDelay: 1.5)
        #expect(policy.decide(after: Self.reset, attempt: 1) == .retry(after: 0.5))
        #expect(policy.decide(after: Self.reset, attempt: 2) == .retry(after: 1))
        #expect(policy.decide(after: Self.reset, attempt: 3) == .retry(after: 1.5))
        #expect(policy.decide(after: Self.reset, attempt: 4) == .fail)
    }

    @Test func attemptBelowOneCountsAsTheFirst() {
        #expect(RetryPolicy().decide(after: Self.reset, attempt: 0) == .retry(after: 1))
    }

    @Test func defaults() {
        let policy = RetryPolicy()
        #expect(policy.maxRetries == 5)
        #expect(policy.baseDelay == 1)
        #expect(policy.maxDelay == 60)
        #expect(policy.maxRetryAfter == 3600)
    }
}
