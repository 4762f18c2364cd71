import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// `aria2.addUri` of an `.m3u8`, as a browser extension sends a video page's stream to aria2 (DESIGN §9).
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct StreamRPCTests {
        @Test func addUriOfAPlaylistDownloadsTheStreamAndTellStatusGivesItsLength() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            let stream = try HLSStream(server, name: "rpc", query: "segments=20&segsize=128k&key=1&conncap=1m")
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run, arguments: ["-s", "2"])
            let gid = try #require(try await haul.result("aria2.addUri", [[stream.url()], ["dir": run.downloads]]) as? String)
            var lengths: [Int] = []
            try await eventually("complete", timeout: .seconds(40), poll: .milliseconds(100)) {
                let status = try await haul.status(gid, ["status", "totalLength", "completedLength"])
                lengths.append(Int(status["totalLength"] as? String ?? "") ?? -1)
                return status["status"] as? String == "complete"
            }
            expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts")
            let final = try await haul.status(gid, ["totalLength", "completedLength", "files"])
            #expect(final["totalLength"] as? String == "\(20 * (128 << 10))", "\(final)")
            #expect(final["completedLength"] as? String == final["totalLength"] as? String, "\(final)")
            #expect(lengths.last.map { $0 > 0 } == true, "totalLength is the estimate, > 0: \(lengths)")
            let files = final["files"] as? [[String: Any]]
            #expect((files?.first?["path"] as? String)?.hasSuffix("/index.ts") == true, "\(String(describing: files))")
        }

        @Test func addUriOptionsChooseTheVariantOrKeepThePlaylist() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            let stream = try HLSStream(server, name: "rpcabr", query: "segments=6&segsize=64k&variants=3")
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let worst = try #require(try await haul.result(
                "aria2.addUri", [[stream.url("master.m3u8")], ["dir": run.downloads, "stream-quality": "worst", "out": "low.ts"]]) as? String)
            let kept = try #require(try await haul.result(
                "aria2.addUri", [[stream.url("master.m3u8")], ["dir": run.downloads, "stream": "off", "out": "list.m3u8"]]) as? String)
            for gid in [worst, kept] {
                try await eventually("\(gid) complete", timeout: .seconds(40), poll: .milliseconds(100)) {
                    try await haul.status(gid, ["status"])["status"] as? String == "complete"
                }
            }
            expectSameBytes(run.file("low.ts"), stream.expectedOutput(track: .variant(stream.plan.worstVariant)), "low.ts is the 360p")
            expectSameBytes(run.file("list.m3u8"), Array(stream.plan.masterPlaylist().utf8), "the master kept as a file")
        }
    }
}
