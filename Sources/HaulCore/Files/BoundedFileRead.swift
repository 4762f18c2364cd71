import Foundation

/// Reads a file a user named (cookies, netrc), never more than a limit: the size is what was read, not what the
/// file claims, so a huge or sparse file costs at most `limit + 1` bytes of memory and no time.
public enum BoundedFileRead {
    public enum Failure: Error, Equatable {
        /// Missing, a directory, or unreadable.
        case unreadable
        /// Holds more than `limit` bytes.
        case tooLarge
    }

    /// The whole contents of the regular file at `path`, at most `limit` bytes.
    public static func contents(of path: String, limit: Int) throws(Failure) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let handle = FileHandle(forReadingAtPath: path)
        else { throw .unreadable }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) ?? Data() else { throw .unreadable }
        guard data.count <= limit else { throw .tooLarge }
        return data
    }
}
