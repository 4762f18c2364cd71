/// Where a task's bytes live while it downloads: `NAME.part` beside the final file.
public enum PartialFilePath {
    public static let suffix = ".part"

    public static func partName(for fileName: String) -> String { fileName + suffix }

    /// Absolute path of the part file of a task whose name is decided.
    public static func path(directory: String, fileName: String) -> String {
        PathJoin.join(directory, partName(for: fileName))
    }
}
