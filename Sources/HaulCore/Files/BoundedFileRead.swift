import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a file a user named (settings, cookies, netrc), never more than a limit: the size `fstat` gives is checked
/// before a byte is read, and the read itself stops past the limit (a file that grows, or a device with no size),
/// so a huge or sparse file costs at most `limit + 1` bytes of memory and no time. The one bounded reader.
public enum BoundedFileRead {
    public enum Failure: Error, Equatable {
        /// There is no such file.
        case missing
        /// The path is a directory.
        case directory
        /// It cannot be opened or read (the system's words).
        case unreadable(String)
        /// It holds more than the limit: its size, or as much as was read past the limit.
        case tooLarge(bytes: Int64)
    }

    /// The whole contents of the file at `path`, at most `limit` bytes.
    public static func contents(of path: String, limit: Int) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT ? .missing : .unreadable(String(cString: strerror(code)))
        }
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw .directory }
        if info.st_size > limit { throw .tooLarge(bytes: Int64(info.st_size)) }
        let data: Data
        do {
            data = try file.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .unreadable(error.localizedDescription)
        }
        if data.count > limit { throw .tooLarge(bytes: Int64(data.count)) }
        return data
    }
}
