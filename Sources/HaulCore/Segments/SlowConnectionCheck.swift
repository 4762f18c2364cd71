/// Which connections of a segmented download to replace with fresh ones (DESIGN §7).
///
/// Servers that cap each connection do not always give every connection the same cap: a mirror behind a
/// load balancer, a CDN edge or a file host may put one connection on a slow path for its whole life.
/// Work stealing ends such a connection's tail, but while it runs it fetches at its low rate. A fresh
/// connection may land on a fast path, so a connection that stays far below the fast ones, with enough
/// left to fetch that a new one pays for its setup, is closed and its range handed to a new connection
/// (as Surge does).
///
/// A pure decision over the connections' measured speeds, so it is tested without a network.
public enum SlowConnectionCheck {
    /// One running connection, as the engine measured it.
    public struct Sample: Sendable, Equatable {
        /// Names the connection for the caller (its position in the caller's list, say).
        public var id: Int
        /// Smoothed bytes per second.
        public var speed: Double
        /// How long it has received body bytes; younger ones are still ramping up and are not judged.
        public var receivingSeconds: Double
        /// Bytes of its range still to fetch.
        public var remaining: Int64

        public init(id: Int, speed: Double, receivingSeconds: Double, remaining: Int64) {
            self.id = id
            self.speed = speed
            self.receivingSeconds = receivingSeconds
            self.remaining = remaining
        }
    }

    /// Seconds a connection must have received before its speed says anything, at least: on a far server
    /// the caller asks for more (TCP's slow start takes some round trips to reach full speed).
    public static let settlingSeconds = 1.0
    /// A connection below this share of the fast ones' speed is slow.
    public static let slowShare = 0.5
    /// A replacement must save at least this long: the slow connection's rest would take longer than
    /// this beyond what a fast one needs, which covers a new connection's handshakes and ramp.
    public static let minimumSavingSeconds = 1.5

    /// The connections to replace now, slowest first, at most `allowance` of them.
    ///
    /// The fast speed is the upper quartile of the settled connections, so one lucky connection does not
    /// make all others look slow and half the connections being slow still leaves a fast reference. At
    /// least two settled connections are needed: one alone has nothing to compare with.
    public static func replacements(among samples: [Sample], allowance: Int, settling: Double = settlingSeconds) -> [Int] {
        guard allowance > 0 else { return [] }
        let settled = samples.filter { $0.receivingSeconds >= max(settling, settlingSeconds) && $0.speed > 0 }
        guard settled.count >= 2 else { return [] }
        let speeds = settled.map(\.speed).sorted()
        let fast = speeds[(speeds.count * 3) / 4]
        let slow = settled.filter { sample in
            guard sample.speed < slowShare * fast else { return false }
            let left = Double(sample.remaining)
            return left / sample.speed - left / fast >= minimumSavingSeconds
        }
        return slow.sorted { $0.speed < $1.speed }.prefix(allowance).map(\.id)
    }
}
