import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension HaulProcess {
    /// The built executable `name`; see the type's documentation for where it looks.
    public static func binary(named name: String) throws -> URL {
        let candidates = searchDirectories().map { $0 + "/" + name }
        for candidate in candidates where access(candidate, X_OK) == 0 {
            return URL(fileURLWithPath: candidate)
        }
        throw Failure.binaryNotFound(name: name, searched: candidates)
    }

    /// Directories searched by `binary(named:)`, in order.
    public static func searchDirectories() -> [String] {
        var directories: [String] = []
        if let dir = ProcessInfo.processInfo.environment["HAUL_BIN_DIR"], !dir.isEmpty {
            directories.append(dir)
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append((exe as NSString).deletingLastPathComponent)
        }
        // This file is <package>/Tests/HaulTestSupport/HaulProcess+Binary.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        directories.append(root + "/.build/debug")
        directories.append(root + "/.build/release")
        return directories
    }
}
