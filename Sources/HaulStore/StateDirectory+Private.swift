import Glibc

extension StateDirectory {
    /// Makes the directory 0700 when `StateDirectoryCheck` says it is haul's, else throws why not. Every step is on
    /// one descriptor opened without following a symbolic link, so the mode changed is that of the directory checked.
    func makePrivate() throws(StateDirectoryError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { throw .symbolicLink(path: path) }
            throw .cannotCreate(path: path, errno: code, message: String(cString: strerror(code)))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.failure(path) }
        let entries = try Self.names(in: descriptor, path: path)
        switch StateDirectoryCheck.decide(owner: info.st_uid, currentUser: geteuid(), mode: info.st_mode & 0o7777, entries: entries) {
        case .use:
            return
        case .makePrivate:
            guard fchmod(descriptor, 0o700) == 0 else { throw Self.failure(path) }
        case let .refuse(reason):
            throw .refused(path: path, reason: reason)
        }
    }

    /// The names in the directory open as `descriptor` (without `.` and `..`); the listing stops once it holds
    /// more than haul's own names could fill plus the foreign names a refusal quotes.
    private static func names(in descriptor: Int32, path: String) throws(StateDirectoryError) -> [String] {
        // `closedir` closes the descriptor it reads, so it reads a copy.
        let copy = dup(descriptor)
        guard copy >= 0 else { throw failure(path) }
        guard let directory = fdopendir(copy) else {
            close(copy)
            throw failure(path)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while names.count < ownFileNames.count + StateDirectoryCheck.quotedNames, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The failure of the last call on `path`, from `errno`.
    private static func failure(_ path: String) -> StateDirectoryError {
        let code = errno
        return .cannotCreate(path: path, errno: code, message: String(cString: strerror(code)))
    }
}
