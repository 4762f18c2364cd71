import Foundation
import HaulCore
@testable import HaulTransfer
import HaulTestSupport
import Testing

/// Below a confinement root the download directory is reached through real directories only.
@Suite struct DownloadDirectoryTests {
    @Test func theDeepestRootHoldingThePathIsChosen() {
        let roots = ["/dl", "/dl/rpc/", "/other"]
        #expect(DownloadDirectory.deepestRoot(holding: "/dl/a/b", among: roots) == "/dl")
        #expect(DownloadDirectory.deepestRoot(holding: "/dl/rpc/x", among: roots) == "/dl/rpc")
        #expect(DownloadDirectory.deepestRoot(holding: "/dl", among: roots) == "/dl")
        #expect(DownloadDirectory.deepestRoot(holding: "/dlx/a", among: roots) == nil)
        #expect(DownloadDirectory.deepestRoot(holding: "/x", among: roots) == nil)
    }

    @Test func subdirectoriesAreCreatedAndALinkBelowTheRootIsRefused() throws {
        let temporary = try TemporaryDirectory()
        let root = temporary.path + "/root", outside = temporary.path + "/outside"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // The root itself may be a link (a user's ~/Downloads on another disk).
        try FileManager.default.createSymbolicLink(atPath: root, withDestinationPath: outside)
        _ = try DownloadDirectory(path: root + "/a/b", roots: [root])
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: outside + "/a/b", isDirectory: &isDirectory) && isDirectory.boolValue)
        try FileManager.default.createSymbolicLink(atPath: root + "/a/link", withDestinationPath: temporary.path)
        #expect(throws: DownloadError.self) { try DownloadDirectory(path: root + "/a/link/c", roots: [root]) }
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/c"))
        #expect(throws: DownloadError.self) { try DownloadDirectory(path: root + "/../escape", roots: [root]) }
        // Outside every root the path is the user's own and is opened as given.
        _ = try DownloadDirectory(path: root + "/a/link", roots: [])
    }
}
