/// How much the kernel may take in for one rate-limited connection before haul reads it.
///
/// A budget pauses reading, but the kernel keeps accepting data into the socket's receive buffer, and grows
/// that buffer as TCP tunes itself: with a dozen connections the network delivers megabytes past the cap.
/// A limited connection's socket asks for a quarter second of its share of the rate, rounded down to a power
/// of two (so small changes in the share do not reset it). The kernel doubles what is asked for its own
/// bookkeeping, and offers the server about what was asked as its window.
enum ReceiveWindow {
    static let seconds = 0.25
    static let smallest = 16 << 10
    static let largest = 4 << 20

    /// The buffer for one of `connections` connections sharing `rate` bytes a second.
    static func bytes(rate: Int64, connections: Int) -> Int {
        let share = Double(max(1, rate)) / Double(max(1, connections)) * seconds
        var size = smallest
        while size < largest, Double(size << 1) <= share { size <<= 1 }
        return size
    }
}
