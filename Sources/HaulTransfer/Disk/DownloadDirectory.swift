import CFileSystem
import Glibc
import HaulCore

/// The download directory, opened once per transfer; every file is created relative to it with
/// `O_NOFOLLOW`, so no name (however hostile) can reach outside it.
final class DownloadDirectory: Sendable {
    let path: String
    let fd: Int32

    /// Opens (creating if needed) the directory.
    ///
    /// Below the deepest of `roots` that holds `path`, each component is created and opened relative to its
    /// parent with `O_NOFOLLOW`: a symbolic link there (say one swapped in after the task's directory was
    /// checked) is refused, never followed out of the root. A path under no root is opened as given.
    init(path: String, roots: [String] = []) throws(DownloadError) {
        self.path = path
        guard let root = Self.deepestRoot(holding: path, among: roots) else {
            fd = try Self.openCreating(path)
            return
        }
        var fd = try Self.openCreating(root)
        var reached = root
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        for component in path.dropFirst(root.count).split(separator: "/") where component != "." {
            reached += "/" + component
            guard component != ".." else {
                close(fd)
                throw FileWriter.error(call: "mkdir", path: reached, errno: EACCES)
            }
            // Created only where it is missing: a directory that is there costs one call.
            var next = openat(fd, String(component), flags)
            if next < 0, errno == ENOENT {
                if mkdirat(fd, String(component), 0o755) != 0, errno != EEXIST {
                    let code = errno
                    close(fd)
                    throw FileWriter.error(call: "mkdir", path: reached, errno: code)
                }
                next = openat(fd, String(component), flags)
            }
            let code = errno
            close(fd)
            guard next >= 0 else {
                if code == ELOOP || code == ENOTDIR {
                    throw .fileSystem(
                        call: "open", path: reached, errno: code,
                        message: "not a real directory (a symbolic link or a file); haul follows no link below \(root)")
                }
                throw FileWriter.error(call: "open", path: reached, errno: code)
            }
            fd = next
        }
        self.fd = fd
    }

    /// The longest of `roots` that is `path` or one of its ancestors (compared as written, without a trailing `/`).
    static func deepestRoot(holding path: String, among roots: [String]) -> String? {
        roots.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { path == $0 || path.hasPrefix($0 == "/" ? "/" : $0 + "/") }
            .max { $0.count < $1.count }
    }

    deinit { close(fd) }

    func fullPath(_ name: String) -> String { PathJoin.join(path, name) }

    /// Opens the existing part file of a decided name (creating it when it vanished).
    func openPart(of fileName: String) throws(DownloadError) -> FileWriter {
        let name = PartialFilePath.partName(for: fileName)
        let fd = openat(self.fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileWriter.error(call: "open", path: fullPath(name), errno: errno) }
        return FileWriter(fd: fd, path: fullPath(name))
    }

    /// Creates a new part file for `fileName`, or for `name (n).ext` when that name or its part file is taken.
    ///
    /// The part file carries the task's `tag` (`PartOwnerTag`). A part file that no transfer of this process uses
    /// is taken over, emptied, when it is empty or carries this tag: it is what a crash between creating the file
    /// and recording its name leaves behind (another task's or program's part file is never touched).
    /// Names in `heldElsewhere` belong to other unfinished tasks (whose part file may be missing or empty
    /// for now) and are never used. With `replacing`, a regular file at a name does not take it: the download
    /// will replace it (`--allow-overwrite`).
    func reservePart(
        for fileName: String, inUse: Set<String>, heldElsewhere: Set<String>, replacing: Bool = false, tag: PartOwnerTag
    ) throws(DownloadError) -> (name: String, writer: FileWriter) {
        for n in 0..<1000 {
            let candidate = n == 0 ? fileName : SafeFileName.numbered(fileName, n)
            // A file carrying this task's mark is its own, published by a run killed before recording it.
            let replaceable = (replacing && regularFileSize(candidate) != nil) || carries(tag, candidate)
            if heldElsewhere.contains(candidate) || (exists(candidate) && !replaceable) { continue }
            let partName = PartialFilePath.partName(for: candidate)
            let fd = openat(self.fd, partName, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 {
                tag.mark(fd)
                return (candidate, FileWriter(fd: fd, path: fullPath(partName)))
            }
            guard errno == EEXIST else { throw FileWriter.error(call: "open", path: fullPath(partName), errno: errno) }
            guard !inUse.contains(fullPath(partName)), regularFileSize(partName) != nil else { continue }
            let reused = openat(self.fd, partName, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard reused >= 0 else { continue }
            var info = stat()
            if fstat(reused, &info) == 0, info.st_size == 0 || tag.marks(reused) {
                tag.mark(reused)
                let writer = FileWriter(fd: reused, path: fullPath(partName))
                try writer.truncate(to: 0)
                return (candidate, writer)
            }
            close(reused)
        }
        throw .fileSystem(call: "open", path: fullPath(fileName), errno: EEXIST, message: "1000 files of that name exist")
    }

    /// Puts `tag` on the regular file `name`.
    func mark(_ name: String, with tag: PartOwnerTag) {
        withRegularFile(name) { tag.mark($0) }
    }

    /// Whether the regular file `name` carries `tag`: a file this task published.
    func carries(_ tag: PartOwnerTag, _ name: String) -> Bool {
        withRegularFile(name) { tag.marks($0) } ?? false
    }

    /// `body` on the regular file `name`, opened without following a link; nil when there is none.
    private func withRegularFile<T>(_ name: String, _ body: (Int32) -> T) -> T? {
        let fd = openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return body(fd)
    }

    /// Removes the part file of `fileName` when it is a second name of the published file itself: what a crash
    /// between linking the part to its final name and unlinking the part leaves (where rename cannot refuse to
    /// replace). Returns whether it did.
    @discardableResult
    func dropPartLinkedToFinal(_ fileName: String) -> Bool {
        let partName = PartialFilePath.partName(for: fileName)
        var part = stat(), final = stat()
        guard fstatat(fd, partName, &part, AT_SYMLINK_NOFOLLOW) == 0, fstatat(fd, fileName, &final, AT_SYMLINK_NOFOLLOW) == 0,
              (part.st_mode & S_IFMT) == S_IFREG, part.st_dev == final.st_dev, part.st_ino == final.st_ino else { return false }
        return unlinkat(fd, partName, 0) == 0
    }

    /// Writes `bytes` to a new part file of `fileName`, syncs it and publishes it (`publish`): a small file made whole
    /// in one go (a stream's subtitles). Returns the name it got.
    func writeBeside(_ bytes: [UInt8], as fileName: String, replacing: Bool, tag: PartOwnerTag) throws(DownloadError) -> String {
        let partName = try writePart(bytes, for: fileName, tag: tag)
        do throws(DownloadError) {
            return try publish(partName, as: fileName, replacing: replacing, tag: tag)
        } catch {
            unlinkat(fd, partName, 0)
            throw error
        }
    }

    /// Writes `bytes` to the part file of `fileName` (made anew, marked, synced); returns the part file's name.
    func writePart(_ bytes: [UInt8], for fileName: String, tag: PartOwnerTag) throws(DownloadError) -> String {
        let partName = PartialFilePath.partName(for: fileName)
        let descriptor = openat(fd, partName, O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriter.error(call: "open", path: fullPath(partName), errno: errno) }
        let writer = FileWriter(fd: descriptor, path: fullPath(partName))
        defer { writer.close() }
        do throws(DownloadError) {
            tag.mark(descriptor)
            let failure: DownloadError? = bytes.withUnsafeBytes { buffer in
                do throws(DownloadError) {
                    try writer.write(buffer, at: 0)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            try writer.sync()
            return partName
        } catch {
            unlinkat(fd, partName, 0)
            throw error
        }
    }

    /// Moves the file `partName` (`NAME.part`, or a file made of it) to `fileName` or a free numbered name (never
    /// overwriting) and returns that name; with `replacing`, to `fileName` itself, over the regular file there (a link
    /// or a directory there is never replaced). A file there that carries the task's `tag` is replaced too: the
    /// task's own, published before a crash kept it from being recorded.
    func publish(_ partName: String, as fileName: String, replacing: Bool = false, tag: PartOwnerTag? = nil) throws(DownloadError) -> String {
        if replacing || tag.map({ carries($0, fileName) }) == true, regularFileSize(fileName) != nil {
            guard renameat(fd, partName, fd, fileName) == 0 else {
                throw FileWriter.error(call: "rename", path: fullPath(partName), errno: errno)
            }
            return fileName
        }
        var renameRefuses = true
        for n in 0..<1000 {
            let candidate = n == 0 ? fileName : SafeFileName.numbered(fileName, n)
            // A rename that refuses to replace a name moves the file in one step: no crash can leave it under two names.
            if renameRefuses {
                if CFileSystem_rename_noreplace(fd, partName, fd, candidate) == 0 { return candidate }
                switch errno {
                case EEXIST: continue
                case EINVAL, ENOSYS, ENOTSUP: renameRefuses = false
                default: throw FileWriter.error(call: "rename", path: fullPath(partName), errno: errno)
                }
            }
            // Else link() refuses to replace an existing name, which makes the move non-clobbering; a crash before
            // the unlink leaves two names of one file, which the next attempt sees (`dropPartLinkedToFinal`).
            if linkat(fd, partName, fd, candidate, 0) == 0 {
                unlinkat(fd, partName, 0)
                return candidate
            }
            switch errno {
            case EEXIST: continue
            case EPERM, EXDEV, ENOTSUP, EMLINK:
                // Filesystems without hard links: check, then rename.
                if exists(candidate) { continue }
                guard renameat(fd, partName, fd, candidate) == 0 else {
                    throw FileWriter.error(call: "rename", path: fullPath(partName), errno: errno)
                }
                return candidate
            default:
                throw FileWriter.error(call: "link", path: fullPath(partName), errno: errno)
            }
        }
        throw .fileSystem(call: "link", path: fullPath(fileName), errno: EEXIST, message: "1000 files of that name exist")
    }

    /// Free bytes for unprivileged users on this filesystem and whether it is read-only, or nil when unknown.
    func room() -> FreeSpace.Room? {
        FreeSpace.room(onFileSystemOf: fd)
    }

    /// Size of a regular file in the directory (never following a link); nil when there is none.
    func regularFileSize(_ name: String) -> Int64? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Whether `path` is a regular file (a link is not followed).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private func exists(_ name: String) -> Bool {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Opens the directory at `path`, creating it and its parents (`makePath`) only when it is missing.
    private static func openCreating(_ path: String) throws(DownloadError) -> Int32 {
        var fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0, errno == ENOENT {
            try makePath(path)
            fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw FileWriter.error(call: "open", path: path, errno: errno) }
        return fd
    }

    /// `mkdir -p`.
    private static func makePath(_ path: String) throws(DownloadError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw FileWriter.error(call: "mkdir", path: current, errno: errno)
            }
        }
    }
}
