import FaultServer
import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Aria2Conformance {
    /// A task added over RPC with `dir: "later"` waits; then `later` is made a symbolic link to a directory outside
    /// the download directory. The file must not land there: the directory rule holds when the file is created.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 is not installed"))
    struct SymlinkEscapeTests {
        @Test func aLinkSwappedInAfterTheCheckLeadsNowhere() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            server.route("/file.bin", .file(size: 100_000, seed: 12))
            let run = try HaulRun()
            let outside = run.root.path + "/outside"
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: run.downloads, withIntermediateDirectories: true)
            let haul = try await Aria2Haul.start(run)
            let gid = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/file.bin")], ["pause": "true", "dir": "later"]]) as? String)
            // Whether or not haul made the (empty) directory already, or makes it meanwhile, a link takes its place.
            let later = run.downloads + "/later"
            try await eventually("later is a link", timeout: .seconds(10)) {
                _ = rmdir(later)
                return symlink(outside, later) == 0 || (try? FileManager.default.destinationOfSymbolicLink(atPath: later)) == outside
            }
            _ = try await haul.result("aria2.unpause", [gid])
            let status = try await eventuallyValue("the task ends", timeout: .seconds(20)) {
                let status = try await haul.status(gid, ["status", "errorMessage"])
                return ["error", "complete"].contains(status["status"] as? String ?? "") ? status : nil
            }
            #expect(status["status"] as? String == "error")
            #expect((status["errorMessage"] as? String)?.contains("symbolic link") == true, "\(status)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        }
    }
}
