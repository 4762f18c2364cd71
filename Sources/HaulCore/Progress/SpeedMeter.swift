/// The transfer rate of one task over a sliding window, with honest "no sample yet" and "stalled" states.
///
/// Feed it absolute byte positions with the time they were seen; ask for the rate at any time. It keeps
/// one checkpoint per 1-second bucket (the first sample seen in that second) plus the latest sample, so
/// memory stays at a few entries. The rate is the bytes between a checkpoint about one window old and the
/// latest position, over the time between them: smooth, never a per-chunk rate, exact for a steady one.
///
/// A value type owned by whoever records into it (the controller actor keeps one per running task).
public struct SpeedMeter: Sendable {
    /// What the meter can say at a given time.
    public enum Reading: Sendable, Equatable {
        /// Less than about a second of data, or no byte yet since the meter (re)started.
        case noSample
        /// No new byte for `SpeedMeter.stallThreshold` or longer.
        case stalled
        /// Bytes per second over the window.
        case rate(Double)
    }

    /// A position and the time it was seen.
    struct Sample: Sendable, Equatable {
        var time: ContinuousClock.Instant
        var position: Int64
    }

    /// No new byte for this long means stalled.
    public static let stallThreshold: Duration = .seconds(3)
    /// Width of a bucket, and the least span of data that gives a rate.
    static let bucket: Duration = .seconds(1)

    /// How far back the rate looks.
    public let window: Duration
    /// The first sample after creation or a reset: the origin of the buckets and the baseline position.
    private var origin: Sample?
    /// The first sample of each 1-second bucket, oldest first; one of them lies before the window.
    private var checkpoints: [Sample] = []
    /// The most recent sample.
    private var latest: Sample?
    /// When the position last grew; nil when it has not grown since the origin.
    private var lastGrowth: ContinuousClock.Instant?

    /// A meter that averages over `window` (at least one second).
    public init(window: Duration = .seconds(5)) {
        self.window = max(window, Self.bucket)
    }

    /// Records the absolute byte position seen at `time`.
    ///
    /// The first record sets the baseline (a resumed transfer starts at its offset). A position lower than
    /// the last one means the transfer restarted: the meter resets and the record becomes the new baseline.
    /// A time earlier than the last record's counts as the last record's time.
    public mutating func record(position: Int64, at time: ContinuousClock.Instant) {
        guard let origin, let latest, position >= latest.position else {
            reset()
            let sample = Sample(time: time, position: position)
            self.origin = sample
            self.checkpoints = [sample]
            self.latest = sample
            return
        }
        let sample = Sample(time: max(time, latest.time), position: position)
        if position > latest.position { lastGrowth = sample.time }
        self.latest = sample

        if let last = checkpoints.last,
           bucketIndex(of: last.time, from: origin.time) == bucketIndex(of: sample.time, from: origin.time) {
            // This second already has its checkpoint.
        } else {
            checkpoints.append(sample)
        }
        // Keep a single checkpoint at or before the window's start, so a full window is always at hand.
        let horizon = sample.time - window
        while checkpoints.count > 1, checkpoints[1].time <= horizon {
            checkpoints.removeFirst()
        }
    }

    /// Bytes per second over the last `window`; nil when there is no sample yet or the transfer stalled.
    public func bytesPerSecond(at time: ContinuousClock.Instant) -> Double? {
        if case let .rate(value) = reading(at: time) { return value }
        return nil
    }

    /// The rate at `time`, or why there is none.
    ///
    /// The measured span ends at the latest record, or at `time` minus one second when the latest record is
    /// older than that: progress arrives in bursts a few times a second, so a record less than a second old
    /// counts as current, while an older one lets the rate decay until the transfer counts as stalled.
    public func reading(at time: ContinuousClock.Instant) -> Reading {
        guard let origin, let latest else { return .noSample }
        if time - (lastGrowth ?? origin.time) >= Self.stallThreshold { return .stalled }
        guard lastGrowth != nil else { return .noSample }
        let end = max(latest.time, time - Self.bucket)
        // The oldest checkpoint inside the window that ends at `end`.
        guard let base = checkpoints.first(where: { end - $0.time <= window }), end - base.time >= Self.bucket else {
            return .noSample
        }
        return .rate(Double(latest.position - base.position) / (end - base.time).inSeconds)
    }

    /// Forgets everything; the next record is a new baseline.
    public mutating func reset() {
        origin = nil
        checkpoints = []
        latest = nil
        lastGrowth = nil
    }

    private func bucketIndex(of time: ContinuousClock.Instant, from origin: ContinuousClock.Instant) -> Int64 {
        Int64((time - origin).inSeconds.rounded(.down))
    }
}
