import HaulCore

/// How far one HTTP request of a range connection reaches into its lease.
///
/// A request cannot be cut short without the server sending on past the cut (its socket buffers are
/// full of bytes nobody will use). So a range is fetched in requests on the same kept-alive connection,
/// and work is taken from a connection only after the end of its current request: no byte is sent twice.
/// A request lasts about a second of the connection's speed, so a slow connection never holds more than
/// a second's worth that no other may take; twenty round trips where the server is far, so the round
/// trip that passes idle between two requests costs at most a twentieth. A connection whose speed is not
/// known yet asks for 1 MiB first.
enum RequestWindow {
    static let smallest: Int64 = 256 << 10
    static let firstRequest: Int64 = 1 << 20

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
        let seconds = max(1, 20 * roundTrip)
        let size = speed > 0 ? max(smallest, min(Int64.max / 4, (speed * seconds).clampedInt64(.down))) : firstRequest
        // A last piece under half a request goes with this one.
        guard remaining - size >= size / 2 else { return leaseEnd }
        let end = cursor + size
        let aligned = end - end % alignment + (end % alignment == 0 ? 0 : alignment)
        return min(leaseEnd, aligned)
    }
}
