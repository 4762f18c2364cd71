import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Segment links whose tokens expire mid-download (issue 26 §1, DESIGN §11), on the fault server's rotated links
/// that hold for a few requests (`expire=N`) and playlists that go (`plgone=K`): a refused segment has the playlist
/// fetched again and the stream goes on; only a playlist that itself fails runs `--on-link-expired`, and a task whose
/// playlist link fails keeps its bytes on record.
@Suite(.serialized, .timeLimit(.minutes(3))) struct StreamLinkExpiryTests {
    @Test func segmentLinksThatExpireAreRenewedFromThePlaylistAndTheStreamGoesOn() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // Each playlist fetch's links hold for 6 segment requests, then answer 410 Gone.
        let stream = try HLSStream(server, name: "exp", query: "segments=20&segsize=64k&rotate=1&expire=6")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "-s", "2", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts over expiring links")
        #expect(stream.playlistRequests() >= 4, "the playlist is fetched again for fresh links: \(stream.playlistRequests())")
        #expect(events(haul, named: "restarted", id: 1).isEmpty, "matched by media sequence: no restart. \(StreamRun.transcript(haul))")
        let requests = stream.segmentRequests()
        #expect(requests.allSatisfy { $0 >= 1 && $0 <= 3 }, "only refused segments are asked again: \(requests)")
    }

    @Test func aPlaylistThatItselfFailsRunsOnLinkExpiredAndTheStreamGoesOnWithItsSegments() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // The playlist answers once: the segments' links expire after 6 requests and the playlist fetched again is gone.
        let expiring = try HLSStream(server, name: "renew", query: "segments=20&segsize=64k&rotate=1&expire=6&plgone=1")
        let fresh = try HLSStream(server, name: "renew", query: "segments=20&segsize=64k&rotate=1&expire=6")
        let run = try HaulRun()
        let log = run.root.file("hooks.log")
        let hook = try LinkRenewalHookTests.hook(run, "renew", log: log, printing: fresh.url())
        let haul = try run.start(["--headless", "--json", "-s", "2", "--on-link-expired", hook, expiring.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(LinkRenewalHookTests.lines(log) == ["renew 0000000000000001"], "\(LinkRenewalHookTests.lines(log))")
        expectSameBytes(run.file("index.ts"), fresh.expectedOutput(), "index.ts through the new link")
        #expect(events(haul, named: "restarted", id: 1).isEmpty, "the segments kept go on: \(StreamRun.transcript(haul))")
        // With two connections at most one of the first six was still arriving at the first refusal: the first
        // segments were appended and are kept (one still in flight on an old link may be asked again).
        let requests = fresh.segmentRequests()
        #expect(requests.prefix(3).allSatisfy { $0 == 1 }, "the first segments are kept, not fetched again: \(requests)")
        #expect(requests.allSatisfy { $0 >= 1 && $0 <= 3 }, "\(requests)")
    }

    @Test func aStreamWhosePlaylistLinkFailsOnResumeKeepsItsBytesOnRecord() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        let stream = try HLSStream(server, name: "gone", query: "segments=20&segsize=64k&rotate=1&expire=6&plgone=1")
        let run = try HaulRun()
        let first = try run.start(["--headless", "--json", "-s", "2", stream.url()])
        #expect(try await first.waitForExit(timeout: .seconds(60)) == 1, "\(StreamRun.transcript(first))")
        #expect(StreamRun.failure(first).contains("410"), "the playlist's own error: '\(StreamRun.failure(first))'")
        let part = try #require(StreamRun.size(run, "index.ts.part"))
        // Up to six segments were fetched before the links expired (those still arriving when the task failed are not kept).
        #expect(part > 0 && part <= 6 * stream.plan.segmentSize && part % stream.plan.segmentSize == 0, "whole segments stay: \(part) bytes")
        #expect(try await run.list().first?["bytes"] as? Int == part)

        // Again: the playlist link fails at once, before the media playlist is known.
        #expect(try await run.run(["resume", "--all"]).0 == 0)
        let second = try run.start(["--headless", "--json"], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 1, "\(StreamRun.transcript(second))")
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "failed", "\(row)")
        #expect(StreamRun.size(run, "index.ts.part") == part, "the part file is kept")
        #expect(row["bytes"] as? Int == part, "the task's bytes are its part file's, not 0: \(row)")
    }
}
