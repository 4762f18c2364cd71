#if canImport(Glibc)
import Glibc
#endif

/// Gives the pages of memory freed in bulk back to the system: glibc keeps the pages of freed small blocks for later
/// allocations (a task's fields are one), so a daemon that replaced 100,000 tasks (a pause of every task copies each
/// one the last snapshot still shared) would keep their old pages resident for good. `malloc_trim(0)` returns every
/// whole free page, in the middle of the heap too (glibc 2.8 and later), in a few milliseconds.
///
/// `malloc.h` is not in the Glibc module: the function is looked up once in the running program. Stateless; any
/// thread may call it.
public enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Returns the free pages to the system (nothing where the C library has no `malloc_trim`).
    public static func giveBack() {
        _ = trim?(0)
    }
}
