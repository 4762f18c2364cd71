import Glibc
import HaulCore

/// Writes, syncs and truncates one open part file. Every system call goes through one function each,
/// which loops on EINTR and partial writes and maps ENOSPC/EDQUOT to `DownloadError.diskFull`.
///
/// Owned by the transfer thread; `dup()`ed descriptors may be synced on a worker thread.
struct FileWriter: Sendable {
    let fd: Int32
    let path: String

    /// Writes every byte at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(DownloadError) {
        var done = 0
        while done < bytes.count {
            let n = Glibc.pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw error(call: "pwrite")
            }
            done += n
        }
    }

    func sync() throws(DownloadError) {
        while Glibc.fdatasync(fd) != 0 {
            if errno == EINTR { continue }
            throw error(call: "fdatasync")
        }
    }

    func truncate(to length: Int64) throws(DownloadError) {
        while Glibc.ftruncate(fd, off_t(length)) != 0 {
            if errno == EINTR { continue }
            throw error(call: "ftruncate")
        }
    }

    /// Reserves `length` bytes on disk for the file (a file fetched over several connections is written
    /// out of order): a full disk shows at once.
    func allocate(_ length: Int64) throws(DownloadError) {
        while true {
            let code = Glibc.posix_fallocate(fd, 0, off_t(length))
            if code == 0 { return }
            if code == EINTR { continue }
            throw FileWriter.error(call: "fallocate", path: path, errno: code)
        }
    }

    func size() throws(DownloadError) -> Int64 {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(call: "fstat") }
        return Int64(info.st_size)
    }

    /// How many names the file has left; 0 once it was deleted (or its directory removed). nil when unknown.
    func linkCount() -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return Int(info.st_nlink)
    }

    func close() { _ = Glibc.close(fd) }

    /// The same file on a descriptor of its own, for work on another thread (the copy is closed there).
    /// A failed `dup` gives a writer whose calls fail with the reason.
    func duplicate() -> FileWriter { FileWriter(fd: dup(fd), path: path) }

    private func error(call: String) -> DownloadError {
        FileWriter.error(call: call, path: path, errno: errno)
    }

    static func error(call: String, path: String, errno code: Int32) -> DownloadError {
        if code == ENOSPC || code == EDQUOT { return .diskFull(path: path) }
        if code == EROFS { return .readOnlyFileSystem(path: path) }
        return .fileSystem(call: call, path: path, errno: code, message: String(cString: strerror(code)))
    }
}
