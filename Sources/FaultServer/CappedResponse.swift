/// How one response on a capped connection (`conncap`, `conncaps`) met its connection's bucket.
///
/// Lets a test check a cap by what it did (which bytes went at once, which waited) rather than by how long
/// the transfer took, which a busy machine stretches. A value, made by the connection's thread and kept in
/// the route's `RouteStats` when the response ends.
public struct CappedResponse: Sendable, Equatable {
    /// The connection's cap in bytes per second while the response was sent.
    public var rate: Int
    /// Body bytes sent before the bucket first made the response wait: the burst the response found.
    public var bytesBeforeFirstWait: Int64 = 0
    /// Body slices that waited for the bucket to earn them.
    public var waits = 0

    public init(rate: Int, bytesBeforeFirstWait: Int64 = 0, waits: Int = 0) {
        self.rate = rate
        self.bytesBeforeFirstWait = bytesBeforeFirstWait
        self.waits = waits
    }

    /// Counts a slice of `count` bytes that went at once, or that had to wait.
    mutating func note(slice count: Int, waited: Bool) {
        if waited {
            waits += 1
        } else if waits == 0 {
            bytesBeforeFirstWait += Int64(count)
        }
    }
}
