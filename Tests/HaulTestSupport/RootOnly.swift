import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Tests that need root (a tmpfs mount, `setpriv`, a private mount namespace): CI must run them, elsewhere they
/// may skip.
///
/// With `CI` set (`.ci/run` exports `CI=1`), an environment that cannot give such a test what it needs fails
/// it with a message naming what was missing, so a CI run can never pass by skipping them all. Elsewhere the
/// test is skipped with a note. Stateless; any thread.
public enum RootOnly {
    /// Whether `CI` is set (to anything but the empty string).
    public static var inCI: Bool { !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty }

    /// Whether this process runs as root.
    public static var isRoot: Bool { geteuid() == 0 }

    /// Whether a root-only test starts: as root, or in CI, where it then fails for want of root.
    public static var runs: Bool { isRoot || inCI }

    /// The condition trait of a root-only test or suite; `need` says what needs root ("mounting a tmpfs").
    public static func enabled(_ need: String) -> ConditionTrait {
        .enabled(if: runs, "\(need) needs root (skipped outside CI)")
    }

    /// Fails the test in CI and skips it elsewhere unless this process runs as root.
    public static func requireRoot(for need: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        guard !isRoot else { return }
        try unavailable("\(need) needs root, and this runs as uid \(geteuid())", sourceLocation: sourceLocation)
    }

    /// Ends a test this environment cannot run (`reason` says why): a failure in CI, a skip with a note elsewhere.
    public static func unavailable(_ reason: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        if inCI { throw Unavailable(reason: reason) }
        try Test.cancel("skipped: \(reason)", sourceLocation: sourceLocation)
    }

    /// Why a root-only test could not run in CI.
    public struct Unavailable: Error, CustomStringConvertible {
        public var reason: String
        public var description: String {
            "\(reason). CI (CI is set) must run the root-only tests: run them as root with mount rights"
        }
    }
}
