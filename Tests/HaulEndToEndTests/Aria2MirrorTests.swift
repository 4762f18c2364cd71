import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// `aria2.addUri` with several URIs of one file (DESIGN §8): mirrors of one task, shown in `files[].uris[]`.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2MirrorTests {
        @Test func addUriWithTwoURIsFetchesFromBothAndTellStatusListsThem() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var plan = FaultPlan.file(size: 12 << 20, seed: 701)
            plan.connectionRates = [2 << 20]
            server.route("/a.bin", plan)
            server.route("/b.bin", plan)
            server.route("/other.bin", .file(size: 5 << 20, seed: 702))
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run, arguments: ["-s", "3", "--min-split-size", "1M"])
            let options: [String: Any] = ["out": "file.bin"]
            let gid = try #require(try await haul.result(
                "aria2.addUri", [[server.url("/a.bin"), server.url("/b.bin"), server.url("/other.bin")], options]) as? String)
            try await eventually("complete", timeout: .seconds(40)) {
                (try? await haul.status(gid, ["status"]))?["status"] as? String == "complete"
            }
            expectSameBytes(run.file("file.bin"), plan.body.bytes())
            #expect(server.stats("/a.bin").bodyBytesSent > 0 && server.stats("/b.bin").bodyBytesSent > 0)

            let files = try #require(try await haul.status(gid, ["files"])["files"] as? [[String: Any]])
            let uris = try #require(files.first?["uris"] as? [[String: Any]])
            #expect(uris.compactMap { $0["uri"] as? String }
                == [server.url("/a.bin"), server.url("/b.bin"), server.url("/other.bin")], "\(uris)")
            #expect(uris.allSatisfy { ["used", "waiting"].contains($0["status"] as? String ?? "") }, "\(uris)")
            // The mirror of another length was dropped, with haul's reason beside aria2's keys.
            #expect((uris[2]["reason"] as? String)?.contains("\(5 << 20) bytes") == true, "\(uris)")
            #expect(uris[0]["reason"] == nil && uris[1]["reason"] == nil, "\(uris)")
            let getUris = try #require(try await haul.result("aria2.getUris", [gid]) as? [[String: Any]])
            #expect(getUris.count == 3)
        }

        @Test func httpAndHttpsLinksOfOneFileAreTakenAsAria2cTakesThem() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let answer = try await haul.call("aria2.addUri", [["http://127.0.0.1:9/a.bin", "https://127.0.0.1:9/b.bin"]])
            let gid = try #require(answer.object?["result"] as? String, "\(answer.body)")
            let uris = try #require(try await haul.result("aria2.getUris", [gid]) as? [[String: Any]])
            #expect(uris.compactMap { $0["uri"] as? String } == ["http://127.0.0.1:9/a.bin", "https://127.0.0.1:9/b.bin"], "\(uris)")
        }
    }
}
