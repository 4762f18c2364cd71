import Foundation
import HaulCore

/// The exclusive right to transfer for one state directory, held as a `flock` on `haul.lock`.
///
/// One process transfers for a state directory at a time (DESIGN §2); the others only edit the
/// queue, directly when nobody holds the lock and through control requests when someone does.
/// The kernel drops a `flock` when its holder exits for any reason, kill -9 included, so a lock
/// is never stale; the pid written into the file is only there to name the holder in messages.
///
/// `flock` locks belong to an open file description: a second `open` of the file, even in the
/// same process, conflicts with the first. The descriptor is opened close-on-exec so that child
/// processes never inherit the lock. The file is never deleted: unlinking a lock file while
/// another process is about to lock it would let two processes each hold a lock on a
/// different file.
public final class TransferLock: Sendable {
    /// The lock file.
    public let path: String
    /// The locked descriptor, or -1 once released.
    private let descriptor: PthreadMutex<Int32>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = PthreadMutex(descriptor)
    }

    deinit { release() }

    /// Takes the lock, creating the file if needed, and writes our pid into it.
    ///
    /// A process that only probes with `holder(at:)` holds the lock for a moment, so a conflict
    /// is tried again a few times over about 0.1 s before it is reported as `.heldBy`.
    public static func acquire(at path: String) throws(TransferLockError) -> TransferLock {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            throw .cannotOpen(path: path, errno: code, message: Self.message(code))
        }
        var conflicts = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(fd)
                throw .cannotLock(path: path, errno: code, message: Self.message(code))
            }
            conflicts += 1
            if conflicts >= 5 {
                let pid = readPID(fd)
                close(fd)
                throw .heldBy(pid: pid, stateDirectory: Self.directory(of: path))
            }
            usleep(20_000)
        }
        writePID(getpid(), to: fd)
        return TransferLock(path: path, descriptor: fd)
    }

    /// Who holds the lock at `path` now, or nil when nobody does (or the file does not exist).
    ///
    /// Probes with a shared lock taken and dropped at once; never creates the file.
    public static func holder(at path: String) -> TransferLockHolder? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        while flock(fd, LOCK_SH | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            return code == EWOULDBLOCK ? TransferLockHolder(pid: readPID(fd)) : nil
        }
        _ = flock(fd, LOCK_UN)
        return nil
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Clears the pid and drops the lock; later calls do nothing.
    public func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = ftruncate(fd, 0)
            _ = flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    // MARK: - The pid in the file

    /// Replaces the file's content with `pid` and a newline. Failing to write only costs the pid
    /// in other processes' messages, so errors are ignored.
    private static func writePID(_ pid: Int32, to fd: Int32) {
        _ = ftruncate(fd, 0)
        let text = Array("\(pid)\n".utf8)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The pid written by the holder, or nil when the file holds no number (yet).
    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0 else { return nil }
        return pid
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// A process that holds a transfer lock.
public struct TransferLockHolder: Sendable, Equatable {
    /// Its pid, as written into the lock file; nil when it has not been written yet.
    public var pid: Int32?

    public init(pid: Int32?) {
        self.pid = pid
    }
}
