import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension HaulProcess {
    /// The variable `make` sets to the bin directory of the build it just made (`swift build --show-bin-path`).
    public static let binDirectoryVariable = "HAUL_BIN_DIR"

    /// The built executable `name` in `binDirectory()`; throws `Failure.binaryNotFound` when it is not there.
    ///
    /// There is one place to look, never a second: a test that ran another build's `haul` (a stale
    /// `.build/debug`) would test code other than the code it was built with.
    public static func binary(named name: String) throws -> URL {
        let directory = binDirectory()
        let path = directory.path + "/" + name
        guard access(path, X_OK) == 0 else { throw Failure.binaryNotFound(name: name, directory: directory) }
        return URL(fileURLWithPath: path)
    }

    /// The directory the built executables are taken from, in this process's environment.
    public static func binDirectory() -> BinDirectory {
        binDirectory(
            environment: ProcessInfo.processInfo.environment,
            testExecutable: try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
    }

    /// `$HAUL_BIN_DIR` when set, else the directory of the running test executable (`swift test` puts every
    /// product there), else nothing: pure, for tests of this rule.
    public static func binDirectory(environment: [String: String], testExecutable: String?) -> BinDirectory {
        if let given = environment[binDirectoryVariable], !given.isEmpty { return BinDirectory(path: given, origin: .variable) }
        guard let testExecutable else { return BinDirectory(path: "", origin: .unknown) }
        return BinDirectory(path: (testExecutable as NSString).deletingLastPathComponent, origin: .testExecutable)
    }
}
