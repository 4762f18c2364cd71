import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// aria2p (PyPI, pinned in scripts/install-deps.sh) drives haul unchanged: its command line and its `top` view.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.aria2pAvailable, "python3 with aria2p is not installed"))
    struct Aria2pTests {
        @Test func commandLineAddShowPauseResumeRemove() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            let small = FaultPlan.file(size: 300_000, seed: 71)
            server.route("/small.bin", small)
            var slow = FaultPlan.file(size: 8 << 20, seed: 72)
            slow.throttle = 256 << 10
            server.route("/slow.bin", slow)
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)

            let (added, addOut, addErr) = try await RPCClient.aria2p(haul, ["add", server.url("/small.bin")])
            #expect(added == 0, "aria2p add: \(addErr)")
            let smallGID = try #require(Self.createdGID(addOut), "aria2p add printed: \(addOut)")
            try await eventually("small.bin downloaded", timeout: .seconds(15)) { run.file("small.bin")?.count == 300_000 }
            expectSameBytes(run.file("small.bin"), small.body.bytes())

            let (addedSlow, slowOut, _) = try await RPCClient.aria2p(haul, ["add", server.url("/slow.bin")])
            #expect(addedSlow == 0)
            let slowGID = try #require(Self.createdGID(slowOut), "aria2p add printed: \(slowOut)")
            try await eventually("slow.bin active", timeout: .seconds(10)) {
                try await haul.status(slowGID, ["status"])["status"] as? String == "active"
            }

            // show: one row per download with its GID, status and name.
            let (shown, table, showErr) = try await RPCClient.aria2p(haul, ["show"])
            #expect(shown == 0, "aria2p show: \(showErr)")
            let rows = table.split(separator: "\n").map(String.init)
            #expect(rows.first?.hasPrefix("GID") == true)
            #expect(rows.contains { $0.hasPrefix(smallGID) && $0.contains("complete") && $0.contains("small.bin") }, "\(table)")
            #expect(rows.contains { $0.hasPrefix(slowGID) && $0.contains("active") && $0.contains("slow.bin") }, "\(table)")

            #expect(try await RPCClient.aria2p(haul, ["pause", slowGID]).0 == 0)
            try await eventually("slow.bin paused", timeout: .seconds(5)) {
                try await haul.status(slowGID, ["status"])["status"] as? String == "paused"
            }
            let pausedShow = try await RPCClient.aria2p(haul, ["show"]).1
            #expect(pausedShow.split(separator: "\n").contains { $0.hasPrefix(slowGID) && $0.contains("paused") }, "\(pausedShow)")

            #expect(try await RPCClient.aria2p(haul, ["resume", slowGID]).0 == 0)
            try await eventually("slow.bin active again", timeout: .seconds(5)) {
                try await haul.status(slowGID, ["status"])["status"] as? String == "active"
            }

            // remove: aria2p removes the download, then its result: it is gone from every list.
            let (removed, _, removeErr) = try await RPCClient.aria2p(haul, ["remove", slowGID])
            #expect(removed == 0, "aria2p remove: \(removeErr)")
            let afterRemove = try await RPCClient.aria2p(haul, ["show"]).1
            #expect(!afterRemove.contains(slowGID), "\(afterRemove)")
            #expect(afterRemove.contains(smallGID))
            let names = try await run.list().compactMap { $0["url"] as? String }
            #expect(!names.contains(server.url("/slow.bin")))

            // A GID haul does not know is an error aria2p reports, with a non-zero status.
            let (unknown, _, unknownErr) = try await RPCClient.aria2p(haul, ["pause", "00000000000000ff"])
            #expect(unknown != 0)
            #expect(unknownErr.contains("00000000000000ff"), "\(unknownErr)")
        }

        @Test(.enabled(if: TmuxDriver.isAvailable)) func topShowsTheDownloadsAndQuits() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var slow = FaultPlan.file(size: 8 << 20, seed: 73)
            slow.throttle = 256 << 10
            server.route("/top-active.bin", slow)
            server.route("/top-done.bin", .file(size: 100_000, seed: 74))
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let done = try #require(try await haul.result("aria2.addUri", [[server.url("/top-done.bin")]]) as? String)
            try await eventually("top-done.bin complete", timeout: .seconds(10)) {
                try await haul.status(done, ["status"])["status"] as? String == "complete"
            }
            _ = try await haul.result("aria2.addUri", [[server.url("/top-active.bin")]])

            let python = ProcessInfo.processInfo.environment["PATH"].map { "PATH='\($0)' " } ?? ""
            let tmux = try TmuxDriver(
                command: "\(python)python3 -m aria2p --port \(haul.port) --secret \(haul.secret) top", width: 120, height: 20)
            defer { tmux.kill() }
            // Its view polls tellActive/tellWaiting/tellStopped: both rows appear, with their status.
            let screen = try await tmux.waitFor("both downloads listed", timeout: .seconds(20)) {
                $0.contains("top-active.bin") && $0.contains("top-done.bin")
            }
            let lines = screen.split(separator: "\n")
            #expect(lines.contains { $0.contains("top-active.bin") && $0.contains("active") }, "\(screen)")
            #expect(lines.contains { $0.contains("top-done.bin") && $0.contains("complete") }, "\(screen)")
            try tmux.send("q")
            try await tmux.waitFor("EXITED=0", timeout: .seconds(10))
        }

        /// The GID of aria2p's "Created download GID".
        static func createdGID(_ output: String) -> String? {
            guard let range = output.range(of: "Created download ") else { return nil }
            let gid = String(output[range.upperBound...].prefix(16))
            return gid.count == 16 && gid.allSatisfy(\.isHexDigit) ? gid : nil
        }
    }
}
