import HaulCore

/// How far one HTTP request of a range connection reaches into its lease.
///
/// A request cannot be cut short without the server sending on past the cut (its socket buffers are
/// full of bytes nobody will use). So a range is fetched in requests on the same kept-alive connection,
/// and work is taken from a connection only after the end of its current request: no byte is sent twice.
/// Early requests are long (a third of what is left), late ones short, so the tail of a download can
/// still be shared finely; no request is shorter than a quarter second of the connection (at least
/// 256 KiB), or ten round trips where the server is far, so the pause between requests stays small.
enum RequestWindow {
    static let smallest: Int64 = 256 << 10

    /// The end (exclusive) of the next request of a connection at `cursor` whose lease ends at `leaseEnd`.
    /// - Parameters:
    ///   - speed: the connection's bytes per second, 0 when not known yet.
    ///   - roundTrip: seconds of one round trip to the server (a TCP handshake), 0 when not known.
    static func end(
        cursor: Int64, leaseEnd: Int64, speed: Double, roundTrip: Double,
        alignment: Int64 = SegmentLedger.defaultAlignment
    ) -> Int64 {
        let remaining = leaseEnd - cursor
        guard remaining > 0 else { return leaseEnd }
        let seconds = max(0.25, 10 * roundTrip)
        let shortest = max(smallest, Int64(min(speed * seconds, Double(Int64.max / 4))))
        let size = max(shortest, remaining / 3)
        // A last piece under half the shortest request goes with this one.
        guard remaining - size >= shortest / 2 else { return leaseEnd }
        let end = cursor + size
        let aligned = end - end % alignment + (end % alignment == 0 ? 0 : alignment)
        return min(leaseEnd, aligned)
    }
}
