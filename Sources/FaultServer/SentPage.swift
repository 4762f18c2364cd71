#if canImport(Glibc)
import Glibc
#endif

/// Server-side timestamps for scripts: seconds on CLOCK_MONOTONIC, the clock Python's `time.monotonic()` reads on Linux,
/// so a script can set them beside its own.
enum MonotonicSeconds {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Microsecond precision, as JSON numbers.
    static func text(_ seconds: Double) -> String {
        let micros = Int64((seconds * 1e6).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

/// The `/sent` page: body bytes the server has written for every path but its own pages (`/stats`, `/sent`),
/// since it started, the bytes of them its peers have not taken (`untaken`: still in the connections' send buffers,
/// or left there when a connection closed), and the monotonic time of the answer, as one JSON line. Polled, it
/// gives a time series of the server's output (the benchmarks' rate-cap check); written minus untaken is what has
/// left the server, which on loopback differs from what it wrote by send buffers of several MiB a connection.
///
/// A connection its peer reset loses its queue before it is counted: those bytes count as taken.
///
/// Example: `{"time":8123.456789,"bodyBytesSent":104857600,"untaken":65536}`.
enum SentPage {
    static let path = "/sent"

    /// The pages whose bytes are not counted.
    static func isOwnPage(_ path: String) -> Bool {
        path == Self.path || path == StatsPage.path
    }

    static func text(bodyBytesSent: Int64, untaken: Int64) -> String {
        "{\"time\":\(MonotonicSeconds.text(MonotonicSeconds.now())),\"bodyBytesSent\":\(bodyBytesSent),\"untaken\":\(untaken)}\n"
    }
}
