/// Joins a directory and a name in a path, with one slash between them: the one place paths are built.
public enum PathJoin {
    public static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
