#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a `pthread_mutex_t`, used like `Synchronization.Mutex`: `lock.withLock { $0 }`.
///
/// Use this, not `Mutex`, for state shared between threads. On Linux, `Mutex` waits on a futex through
/// the standard library's own atomics, which the thread sanitizer does not see as a lock: every access
/// it protects is reported as a data race, and real races drown in those reports. The sanitizer
/// intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so it knows what this lock orders and
/// reports only the accesses that nothing orders (`make test-tsan`).
///
/// The mutex is allocated once and never moves (a `pthread_mutex_t` must not be copied), and it is not
/// recursive: a `withLock` body must not call `withLock` on the same object.
///
/// `@unchecked Sendable`, and safe: `value` is read and written only inside `withLock`, between the
/// lock and the unlock of `mutex`, so no two threads ever touch it at once; `mutex` itself is set up in
/// `init` and torn down in `deinit`, when no other thread can hold a reference. As with `Mutex`, the
/// body receives the value as `sending` and returns a `sending` result, so a non-`Sendable` value can
/// neither come in from, nor leak out to, code that another thread could also reach.
public final class PthreadMutex<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock, and returns its result.
    public func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
