import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Numbers from a hostile server, queued and then run by the built binary: each such task fails naming the value,
/// the others complete, and haul ends with status 1 instead of a trap (which would bring a daemon down at every
/// start, with the task still queued).
@Suite(.timeLimit(.minutes(2))) struct HostileNumbersEndToEndTests {
    static let hlsType = "application/vnd.apple.mpegurl"

    static func playlist(_ server: FaultServer, _ path: String, _ text: String) {
        server.route(path, FaultPlan(body: .bytes(Array(text.utf8)), contentType: hlsType))
    }

    @Test func queuedHostileNumbersFailTheirTasksAndHaulGoesOn() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/lie.bin", .file(size: 9_223_372_036_854_775_000, seed: 1))
        server.route("/fine.bin", .file(size: 100_000, seed: 2))
        server.route("/s.ts", .file(size: 1000, seed: 3))
        Self.playlist(server, "/map.m3u8", """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MAP:URI="s.ts",BYTERANGE="9223372036854775807@1"
            #EXTINF:2,
            s.ts
            #EXT-X-ENDLIST
            """)
        Self.playlist(server, "/twins.m3u8", """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1000,RESOLUTION=4294967296x4294967296
            a.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=1000,RESOLUTION=4294967296x4294967296
            b.m3u8
            """)
        Self.playlist(server, "/bandwidth.m3u8", """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=9223372036854775807
            media.m3u8
            """)
        Self.playlist(server, "/media.m3u8", "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ns.ts\n#EXT-X-ENDLIST\n")
        let run = try HaulRun()
        let links = ["/lie.bin", "/map.m3u8", "/twins.m3u8", "/bandwidth.m3u8", "/fine.bin"].map { server.url($0) }
        let (added, _, addErr) = try await run.run(["add", "-d", run.downloads] + links)
        #expect(added == 0, "\(addErr)")

        let (status, _, err) = try await run.run(["--headless"], directory: true)
        #expect(status == 1, "some tasks failed, none trapped: \(status) \(err)")
        let tasks = try await run.list()
        let byName = Dictionary(tasks.map { (($0["url"] as? String) ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        let state = { (path: String) in byName[server.url(path)]?["state"] as? String }
        let error = { (path: String) in (byName[server.url(path)]?["error"] as? String) ?? "" }
        #expect(state("/fine.bin") == "completed")
        #expect(state("/lie.bin") == "failed" && error("/lie.bin").contains("9223372036854775000"), "\(error("/lie.bin"))")
        #expect(state("/map.m3u8") == "failed" && error("/map.m3u8").contains("line 3"), "\(error("/map.m3u8"))")
        #expect(state("/twins.m3u8") == "failed" && error("/twins.m3u8").contains("4294967296"), "\(error("/twins.m3u8"))")
        // A bandwidth past any size haul can hold gives no estimate, and the stream itself downloads.
        #expect(state("/bandwidth.m3u8") == "completed", "\(error("/bandwidth.m3u8"))")

        // The failed tasks stay queued as failed; the next start runs the rest without trapping either.
        let (again, _, againErr) = try await run.run(["resume", "--all"])
        #expect(again == 0, "\(againErr)")
        let (rerun, _, rerunErr) = try await run.run(["--headless"], directory: true)
        #expect(rerun == 1, "\(rerun) \(rerunErr)")
    }
}
