import Foundation

/// THE way haul's process ends: standard output and error flushed, then `_exit`, without the `atexit` handlers
/// and static destructors that `exit` runs. Those (OpenSSL's cleanup among them) free global state while the
/// engine, disk and server threads may still be running, which is how a finished download or a refused start
/// could end in a heap abort ("double free or corruption"). Every byte of state is durable before this point:
/// the database commits as it goes, and part files are synced before they are recorded.
enum ProcessExit {
    static func now(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
