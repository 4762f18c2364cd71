import Foundation

/// `-c`/`--continue` (wget's and aria2's name): a partial file that curl, wget or a browser left at a download's
/// final name becomes the part file by a rename (no copy: no second helping of disk space), and the download
/// asks for the rest. The server decides: a 206 from the file's size continues it, and the part file is the
/// task's from then on. Until then the bytes are only lent: when the download starts over (any other answer),
/// fails for good or is removed, the part file goes back to the final name (`giveBack`), never over a file that
/// appeared there meanwhile. `RequestOptions.continuesPartialFile` marks a task whose part file is still lent.
public enum PartialAdoption {
    /// `task` starting from the partial file at its final name, moved to the part file, when there is one (a
    /// regular file, not empty, and no part file beside it); `task` itself otherwise.
    ///
    /// - Throws: the move's failure, naming both paths.
    public static func adopt(_ task: NewTask) throws -> NewTask {
        guard let name = task.requestedName ?? SafeFileName.fromURL(task.url) else { return task }
        let path = PathJoin.join(task.directory, name)
        let part = PartialFilePath.path(directory: task.directory, fileName: name)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0,
              (try? FileManager.default.attributesOfItem(atPath: part)) == nil
        else { return task }
        try move(path, to: part)
        var adopted = task
        adopted.adoptedPart = AdoptedPart(fileName: name, bytes: size)
        adopted.requestOptions.continuesPartialFile = true
        return adopted
    }

    /// Moves the part file of `fileName` in `directory` back to `fileName`, where `-c` found it. Nothing to do
    /// when there is no part file (given back already).
    ///
    /// - Throws: the move's failure, naming both paths; a file at the final name is one (it is never replaced).
    public static func giveBack(directory: String, fileName: String) throws(MoveError) {
        let part = PartialFilePath.path(directory: directory, fileName: fileName)
        guard (try? FileManager.default.attributesOfItem(atPath: part)) != nil else { return }
        try move(part, to: PathJoin.join(directory, fileName))
    }

    /// Renames `source` to `target` in one directory, never replacing a file at `target`: link() refuses an
    /// existing name; where a filesystem has no hard links, the name is checked first.
    static func move(_ source: String, to target: String) throws(MoveError) {
        if link(source, target) == 0 {
            unlink(source)
            return
        }
        let failure = errno
        switch failure {
        case EPERM, ENOTSUP, EMLINK:
            guard (try? FileManager.default.attributesOfItem(atPath: target)) == nil else {
                throw MoveError(source: source, target: target, errno: EEXIST)
            }
            guard rename(source, target) == 0 else { throw MoveError(source: source, target: target, errno: errno) }
        default:
            throw MoveError(source: source, target: target, errno: failure)
        }
    }

    /// A partial file could not be moved between its final name and its part file.
    public struct MoveError: Error, CustomStringConvertible {
        public var source: String
        public var target: String
        public var errno: Int32

        public var description: String {
            "cannot move the partial file '\(source)' to '\(target)': \(String(cString: strerror(errno)))"
        }

        /// The same failure as the engine reports a file-system one.
        public var downloadError: DownloadError {
            .fileSystem(call: "link", path: source, errno: errno,
                        message: "cannot move the partial file back to '\(target)': \(String(cString: strerror(errno)))")
        }
    }
}
