import Foundation
import HaulTUI

/// The values a shell offers after `--theme`: the themes `ThemeLoader` would find by name (the user's folder, the
/// bundled `themes/`, the built-in ones), and `.toml` files and folders when the word looks like a path.
enum ThemeCompletion {
    /// The candidates for `prefix`; the shell keeps those that start with it.
    @Sendable static func candidates(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        if prefix.contains("/") || prefix.hasPrefix(".") || prefix.hasPrefix("~") { return paths(prefix) }
        let environment = ProcessInfo.processInfo.environment
        let folders = [
            ThemeLoader.userDirectory(environment: environment),
            ThemeLoader.bundledDirectory(executablePath: Bundle.main.executablePath ?? CommandLine.arguments[0]),
        ].compactMap { $0 }
        var names = Set(BuiltinTheme.names)
        for folder in folders {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where file.hasSuffix(".toml") {
                names.insert(String(file.dropLast(".toml".count)))
            }
        }
        return names.sorted().filter { $0.hasPrefix(prefix) }
    }

    /// Folders (with a trailing `/`) and `.toml` files in the folder `prefix` names, as written.
    private static func paths(_ prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let written = slash.map { String(prefix[...$0]) } ?? ""
        let expanded = written.hasPrefix("~/") ? NSHomeDirectory() + written.dropFirst() : written
        let folder = expanded.isEmpty ? "." : expanded
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.sorted().compactMap { entry in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + entry, isDirectory: &isDirectory) else { return nil }
            if isDirectory.boolValue { return written + entry + "/" }
            return entry.hasSuffix(".toml") ? written + entry : nil
        }.filter { $0.hasPrefix(prefix) }
    }
}
