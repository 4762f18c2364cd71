/// A receive budget: `rate` bytes per second, refilled continuously, holding at most a small burst.
///
/// Taking bytes may drive the balance below zero (a read is never split); the next bytes wait until the
/// balance is positive again. With a burst of a few tens of milliseconds every second carries about its share.
public struct TokenBucket: Sendable, Equatable {
    /// Bytes per second.
    public private(set) var rate: Int64
    public private(set) var balance: Double
    /// The most the balance may hold: what may arrive at once after an idle spell.
    public private(set) var burst: Double

    /// `burstSeconds` of the rate (at least 16 KiB) may arrive at once.
    public init(rate: Int64, burstSeconds: Double = 0.05) {
        self.rate = max(1, rate)
        burst = max(16 * 1024, Double(self.rate) * burstSeconds)
        balance = burst
    }

    /// Adds what `seconds` earned, up to the burst.
    public mutating func refill(after seconds: Double) {
        guard seconds > 0 else { return }
        balance = min(burst, balance + Double(rate) * seconds)
    }

    /// Whether bytes may be taken now.
    public var isAvailable: Bool { balance > 0 }

    /// Takes `bytes` (allowed while the balance is positive; it may go below zero).
    public mutating func take(_ bytes: Int) {
        balance -= Double(bytes)
    }

    /// A new rate from now on; the balance keeps what it holds, within the new burst.
    public mutating func change(rate: Int64) {
        let fresh = TokenBucket(rate: rate)
        self.rate = fresh.rate
        burst = fresh.burst
        balance = min(balance, burst)
    }
}
