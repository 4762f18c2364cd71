import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// `aria2.changeUri` asks the new link at once, as `haul set-url` does (DESIGN §8): a link to another file is
    /// refused now, naming why, and the task keeps its link and bytes.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2ChangeUriCheckTests {
        @Test func aNewLinkToAnotherFileIsRefusedAtOnce() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var plan = FaultPlan.file(size: 4 << 20, seed: 94)
            plan.etag = "\"film-a\""
            var slow = plan
            slow.throttle = 256 << 10
            server.route("/old/film.bin", slow)
            var other = FaultPlan.file(size: 4 << 20, seed: 95)
            other.etag = "\"film-b\""
            server.route("/other/film.bin", other)
            server.route("/same/film.bin", plan)
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let gid = try #require(try await haul.result("aria2.addUri", [[server.url("/old/film.bin")], ["dir": run.downloads]]) as? String)
            try await eventually("bytes kept", timeout: .seconds(10)) {
                Int(try await haul.status(gid, ["completedLength"])["completedLength"] as? String ?? "") ?? 0 > 100_000
            }
            _ = try await haul.result("aria2.pause", [gid])
            try await eventually("paused", timeout: .seconds(10)) { try await haul.status(gid, ["status"])["status"] as? String == "paused" }

            let refused = try await haul.call("aria2.changeUri", [gid, 1, [server.url("/old/film.bin")], [server.url("/other/film.bin")]])
            #expect(refused.status == 400 && refused.body.contains("not changed") && refused.body.contains("ETag"), "\(refused.body)")
            let uris = try #require(try await haul.result("aria2.getUris", [gid]) as? [[String: Any]])
            #expect(uris.first?["uri"] as? String == server.url("/old/film.bin"), "the task keeps its link")

            let taken = try await haul.result("aria2.changeUri", [gid, 1, [server.url("/old/film.bin")], [server.url("/same/film.bin")]])
            #expect((taken as? [Any])?.count == 2)
            let now = try #require(try await haul.result("aria2.getUris", [gid]) as? [[String: Any]])
            #expect(now.first?["uri"] as? String == server.url("/same/film.bin"))
        }
    }
}
