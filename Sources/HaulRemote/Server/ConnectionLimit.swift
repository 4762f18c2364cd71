#if canImport(Glibc)
import Glibc
#endif

/// How many connections one RPC listener may hold, so that accepting never runs the process out of file
/// descriptors.
///
/// Downloads need descriptors too (curl's connections, part files, the database), and a listener that hits
/// `EMFILE` can accept nothing, not even the owner's own command on the Unix socket. Each listener therefore
/// takes at most a quarter of the descriptors left after a reserve for the engine, never more than `ceiling`:
/// with `ulimit -n 1024` (systemd's default for user units) that is 192 per listener, 384 for both.
enum ConnectionLimit {
    /// Descriptors kept for everything but RPC connections.
    static let reserve = 256
    /// The most connections a listener holds however many descriptors there are.
    static let ceiling = 1024
    /// The least a listener is given, even under a tiny limit.
    static let floor = 8

    /// The per-listener limit for a soft descriptor limit of `descriptorLimit` (`RLIMIT_NOFILE`).
    static func perListener(descriptorLimit: Int) -> Int {
        min(ceiling, max(floor, (descriptorLimit - reserve) / 4))
    }

    /// The per-listener limit for this process's current soft `RLIMIT_NOFILE`.
    static func forThisProcess() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return floor }
        // RLIM_INFINITY is all ones, past any real limit: the clamp turns it into "plenty".
        return perListener(descriptorLimit: Int(min(UInt64(limit.rlim_cur), UInt64(Int32.max))))
    }
}
