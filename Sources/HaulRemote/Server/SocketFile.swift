#if canImport(Glibc)
import Glibc
#endif

/// The control socket's file: made private after bind, removed on shutdown.
enum SocketFile {
    /// Sets mode 0600 on the bound socket at `path` (`chmod`).
    ///
    /// Between bind and this call the socket has the umask's mode; the 0700 state directory around it keeps
    /// other users out during that moment, and this call keeps them out should the directory be opened up later.
    static func makePrivate(_ path: String) throws {
        guard chmod(path, 0o600) == 0 else {
            throw RPCServerError.cannotProtectSocket(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Removes `path` when it is a socket (`lstat` + `unlink`); anything else there is left alone.
    static func removeIfSocket(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return }
        unlink(path)
    }
}
