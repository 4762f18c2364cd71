import Foundation

/// `-c`/`--continue` (wget's and aria2's name): a partial file that curl, wget or a browser left at a download's
/// final name is copied to the part file, and the download asks for the rest. The server decides: a 206 from
/// the copy's size continues it, and the finished file then replaces the partial one; any other answer starts
/// over in the part file, and the partial file stays as it was. A copy, not a move, so nothing the server
/// says can spoil the original.
public enum PartialAdoption {
    /// `task` starting from a copy of the partial file at its final name, when there is one (a regular file,
    /// not empty, and no part file beside it); `task` itself otherwise.
    ///
    /// - Throws: the copy's failure, naming both paths.
    public static func adopt(_ task: NewTask) throws -> NewTask {
        guard let name = task.requestedName ?? SafeFileName.fromURL(task.url) else { return task }
        let path = PathJoin.join(task.directory, name)
        let part = PartialFilePath.path(directory: task.directory, fileName: name)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value, size > 0,
              (try? FileManager.default.attributesOfItem(atPath: part)) == nil
        else { return task }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: part)
        } catch {
            throw AdoptionError(path: path, part: part, reason: error.localizedDescription)
        }
        var adopted = task
        adopted.adoptedPart = AdoptedPart(fileName: name, bytes: size)
        adopted.requestOptions.continuesPartialFile = true
        return adopted
    }

    /// The copy of a partial file failed.
    public struct AdoptionError: Error, CustomStringConvertible {
        public var path: String
        public var part: String
        public var reason: String

        public var description: String { "cannot copy the partial file '\(path)' to '\(part)': \(reason)" }
    }
}
