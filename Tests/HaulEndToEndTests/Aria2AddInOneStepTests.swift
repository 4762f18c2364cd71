import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// `aria2.addUri` with options is one step (DESIGN §11): the task never runs before its cap, connections and
    /// place in the line are set.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2AddInOneStepTests {
        @Test func aCappedAddNeverRunsUncapped() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            server.route("/big.bin", FaultPlan.file(size: 100 << 20, seed: 91))
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let added = ContinuousClock.now
            let gid = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/big.bin")], ["max-download-limit": "1M", "split": "2", "dir": run.downloads]]) as? String)
            // A fast local server: uncapped, the first seconds bring tens of MiB. Sampled until two seconds have
            // passed since the call (a busy machine only brings fewer bytes).
            var most: Int64 = 0
            while ContinuousClock.now - added < .seconds(2) {
                let done = Int64(try await haul.status(gid, ["completedLength"])["completedLength"] as? String ?? "") ?? 0
                most = max(most, done)
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(most <= 2_306_867, "\(most) bytes in the first 2 s under a 1 MiB/s cap")
            let options = try #require(try await haul.result("aria2.getOption", [gid]) as? [String: Any])
            #expect(options["max-download-limit"] as? String == "1048576", "\(options)")
            #expect(options["split"] as? String == "2", "\(options)")
            _ = try await haul.result("aria2.remove", [gid])
        }

        @Test func aPositionPutsTheTaskInPlaceAsItIsAdded() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var slow = FaultPlan.file(size: 4 << 20, seed: 92)
            slow.throttle = 64 << 10
            for name in ["a", "b", "c", "d"] { server.route("/\(name).bin", slow) }
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run, arguments: ["-j", "1"])
            var gids: [String] = []
            for name in ["a", "b", "c"] {
                gids.append(try #require(try await haul.result("aria2.addUri", [[server.url("/\(name).bin")], ["dir": run.downloads]]) as? String))
            }
            let first = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/d.bin")], ["dir": run.downloads], 0]) as? String)
            let waiting = (try await haul.result("aria2.tellWaiting", [0, 10, ["gid"]]) as? [[String: Any]] ?? []).compactMap { $0["gid"] as? String }
            #expect(waiting == [first, gids[1], gids[2]], "\(waiting) \(gids)")
        }
    }
}
