#if canImport(Glibc)
import Glibc
#endif

/// Gives the pages of memory freed in bulk back to the system: glibc keeps the pages of freed small blocks for later
/// allocations (a task's fields are one), so a daemon that replaced 100,000 tasks (a pause of every task copies each
/// one the last snapshot still shared) would keep their old pages resident for good. `malloc_trim(0)` returns every
/// whole free page, in the middle of the heap too (glibc 2.8 and later), in a few milliseconds.
///
/// `malloc.h` is not in the Glibc module: its functions are looked up once in the running program. Stateless; any
/// thread may call them.
public enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32
    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    private static let trim: Trim? = lookUp("malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    private static let option: Option? = lookUp("mallopt").map { unsafeBitCast($0, to: Option.self) }

    private static func lookUp(_ name: String) -> UnsafeMutableRawPointer? {
        #if canImport(Glibc)
        dlopen(nil, RTLD_NOW).flatMap { dlsym($0, name) }
        #else
        nil
        #endif
    }

    /// Returns the free pages to the system (nothing where the C library has no `malloc_trim`).
    public static func giveBack() {
        _ = trim?(0)
    }

    /// Large blocks (over 128 KiB: a snapshot's rows, the indexes of a long queue) from mappings of their own, given
    /// back the moment they are freed. glibc otherwise raises that bound to the largest block freed so far (up to
    /// 32 MiB) and serves the next ones from the heap, where much of what is freed stays resident: for a haul that
    /// runs for days (`mallopt(M_MMAP_THRESHOLD, 128 KiB)`; the daemon holding 100,000 tasks, about 4 MiB less).
    public static func mapLargeBlocksApart() {
        let mmapThreshold: Int32 = -3
        _ = option?(mmapThreshold, 128 << 10)
    }
}
