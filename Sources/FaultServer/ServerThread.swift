#if canImport(Glibc)
import Glibc
#endif

/// Starts detached POSIX threads for the accept loop and for each connection.
///
/// Plain pthreads keep the server off Swift's cooperative pool (two threads on this machine),
/// so a stalled or throttled response never delays the tests that talk to it.
enum ServerThread {
    /// Carries the closure across `pthread_create`.
    private final class Entry {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws {
        let context = Unmanaged.passRetained(Entry(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Entry>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Entry>.fromOpaque(context).release()
            throw Socket.Failure(call: "pthread_create", code: result)
        }
        pthread_detach(thread)
    }
}
