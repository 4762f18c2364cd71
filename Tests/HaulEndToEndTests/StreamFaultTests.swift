import FaultServer
import Foundation
import Glibc
import HaulTestSupport
import Testing

/// Streams from the fault server (`/hls/NAME/…`, HLSStream): kill -9, pause, faults of one segment or of the key,
/// rotating links and a playlist that changes, each checked against the bytes the plan says and the server's
/// count of requests per segment (DESIGN §9). One test at a time: several act at a moment of a throttled download,
/// and the machine is shared.
@Suite(.serialized, .timeLimit(.minutes(5))) struct StreamFaultTests {
    /// The window ahead of the first missing segment with `-s 4`: max(2 × 4, 8).
    static let window = 8

    @Test func killNineThenResumeGivesTheSameBytesAndRefetchesAtMostTheWindow() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // 48 × 256 KiB, each connection at 192 KiB/s: about 16 s over four connections; killed at a random point.
        let stream = try HLSStream(server, name: "kill", query: "segments=48&segsize=256k&conncap=192k")
        let run = try HaulRun()
        let threshold = Int.random(in: 6...24)
        let first = try run.start(["--headless", "-s", "4", stream.url()])
        defer { first.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(threshold, of: run, while: first)
        first.kill(SIGKILL)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)

        let recorded = try await StreamRun.segmentsDone(run)
        let before = stream.segmentRequests()
        let part = StreamRun.size(run, "index.ts.part") ?? 0
        #expect(part >= recorded * stream.plan.segmentSize,
                "the record (\(recorded) segments) never runs ahead of the part file (\(part) bytes)")
        #expect(before.allSatisfy { $0 <= 1 }, "no segment fetched twice before the kill: \(before)")

        let second = try run.start(["--headless", "-s", "4"], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(second))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts after kill -9 at \(threshold)+ segments")
        let after = stream.segmentRequests()
        let again = after.indices.filter { before[$0] > 0 && after[$0] > before[$0] }
        #expect(after.indices.allSatisfy { $0 >= recorded || after[$0] == before[$0] },
                "a segment on record (below \(recorded)) was fetched again: \(after)")
        #expect(again.count <= Self.window && again.allSatisfy { $0 < recorded + Self.window },
                "fetched again: \(again), recorded \(recorded), window \(Self.window)")
        #expect(after.allSatisfy { $0 >= 1 && $0 <= 2 }, "\(after)")
        #expect(stream.playlistRequests() == 2, "the playlist is fetched again on resume")
    }

    /// `part` holds whole clear segments from the first, at most `count` of them.
    static func expectAppendedPrefix(
        _ part: [UInt8], of stream: HLSStream, atMost count: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let size = stream.plan.segmentSize
        #expect(part.count % size == 0 && part.count <= count * size,
                "the part file holds whole segments, at most \(count): \(part.count) bytes", sourceLocation: sourceLocation)
        #expect(part == Array(stream.expectedOutput().prefix(part.count)), "the kept bytes are the first segments, decrypted",
                sourceLocation: sourceLocation)
    }

    /// A task that keeps a headless run alive while the stream is paused (throttled for minutes; never finished).
    static func keepAlive(_ server: FaultServer) -> String {
        server.url("/gen/keep.bin?size=256m&throttle=64k")
    }

    @Test func pauseAndResumeContinueAfterTheLastAppendedSegment() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        let stream = try HLSStream(server, name: "pause", query: "segments=24&segsize=128k&conncap=128k")
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--json", "-s", "2", "-j", "2", stream.url(), Self.keepAlive(server)])
        defer { runner.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(6, of: run, while: runner)
        let pause = try await run.run(["pause", "1"])
        #expect(pause.0 == 0, "haul pause 1: \(pause)")
        try await eventually("task 1 paused", timeout: .seconds(5)) { !events(runner, named: "paused", id: 1).isEmpty }
        let pausedAt = try await StreamRun.segmentsDone(run)
        let before = stream.segmentRequests()
        #expect((StreamRun.size(run, "index.ts.part") ?? 0) >= pausedAt * stream.plan.segmentSize)

        #expect(try await run.run(["resume", "1"]).0 == 0)
        try await eventually("task 1 completed", timeout: .seconds(60), poll: .milliseconds(100)) {
            !events(runner, named: "completed", id: 1).isEmpty
        }
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts after pause and resume")
        let after = stream.segmentRequests()
        #expect((0..<pausedAt).allSatisfy { after[$0] == before[$0] }, "segments below \(pausedAt) were fetched again: \(after)")
        #expect(after.allSatisfy { $0 >= 1 && $0 <= 2 }, "\(after)")
    }

    @Test func rotatingSegmentLinksSurviveAPauseAndResume() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // Every playlist fetch hands out new links; those of an older fetch get 403.
        let stream = try HLSStream(server, name: "rot", query: "segments=20&segsize=128k&conncap=128k&rotate=1")
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--json", "-s", "2", "-j", "2", stream.url(), Self.keepAlive(server)])
        defer { runner.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(6, of: run, while: runner)
        let pause = try await run.run(["pause", "1"])
        #expect(pause.0 == 0, "haul pause 1: \(pause)")
        try await eventually("task 1 paused", timeout: .seconds(5)) { !events(runner, named: "paused", id: 1).isEmpty }
        let pausedAt = try await StreamRun.segmentsDone(run)
        let before = stream.segmentRequests()
        #expect(try await run.run(["resume", "1"]).0 == 0)
        try await eventually("task 1 completed", timeout: .seconds(60), poll: .milliseconds(100)) {
            !events(runner, named: "completed", id: 1).isEmpty || !events(runner, named: "failed", id: 1).isEmpty
        }
        #expect(events(runner, named: "restarted", id: 1).isEmpty,
                "the playlist with new links matches by sequence and durations: no restart. \(StreamRun.transcript(runner))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts with rotated links")
        let after = stream.segmentRequests()
        #expect((0..<pausedAt).allSatisfy { after[$0] == before[$0] }, "segments below \(pausedAt) were fetched again: \(after)")
        #expect(stream.playlistRequests() >= 2, "the playlist is fetched again on resume for fresh links")
        let refused = (0..<20).flatMap { server.stats("/hls/rot/seg\($0).ts").statuses }.filter { $0 == 403 }.count
        #expect(refused == 0, "\(refused) segment requests used a link of the old playlist")
    }

    @Test func aChangedPlaylistOnResumeRestartsTheTaskWithTheReason() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // From its second fetch on, the playlist lists 20 segments of 3 s instead of 24 of 2 s.
        let stream = try HLSStream(
            server, name: "chg", query: "segments=24&segsize=128k&conncap=128k&change=1&changesegments=20&changeduration=3")
        let run = try HaulRun()
        let first = try run.start(["--headless", "-s", "2", stream.url()])
        defer { first.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(4, of: run, while: first)
        first.kill(SIGKILL)
        _ = try await first.waitForExit(timeout: .seconds(10))

        let second = try run.start(["--headless", "--json", "-s", "2"], directory: false)
        // While it runs again, the task's error says why it started over (it is cleared once complete).
        let noted = try await eventuallyValue("the list's error after the restart", timeout: .seconds(30), poll: .milliseconds(50)) {
            () -> String? in
            let error = try await run.list().first?["error"] as? String ?? ""
            if error.hasPrefix("restarted from byte 0: ") { return error }
            return second.isRunning ? nil : "(none seen while it ran)"
        }
        #expect(noted.hasPrefix("restarted from byte 0: the playlist changed:"), "the task's error: '\(noted)'")
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(second))")
        let restarted = events(second, named: "restarted", id: 1)
        #expect((restarted.first?["reason"] as? String)?.hasPrefix("the playlist changed:") == true,
                "a restarted event whose reason starts 'the playlist changed:'. \(StreamRun.transcript(second))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(fetch: 2), "index.ts from the changed playlist")
    }

    @Test func aSegmentThatIsGoneFailsTheTaskNamingItAndKeepsWhatWasAppended() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let stream = try HLSStream(server, name: "gone", query: "segments=12&segsize=64k&err=5:404")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "-s", "2", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 1, "a failed task exits 1. \(StreamRun.transcript(haul))")
        // Segment 5's URI is on line 17: five header lines, then EXTINF and URI per segment.
        let error = StreamRun.failure(haul)
        #expect(error.hasPrefix("segment 5 (line 17): ") && error.contains("404"), "the failed event names segment 5: '\(error)'")
        let row = try #require(try await run.list().first)
        #expect(row["state"] as? String == "failed", "\(row)")
        #expect((row["error"] as? String)?.hasPrefix("segment 5 (line 17): ") == true, "\(row)")
        // What was appended stays: whole segments from the start, none past segment 4.
        let part = try #require(FileManager.default.contents(atPath: run.downloads + "/index.ts.part").map { [UInt8]($0) }, "the part file stays")
        Self.expectAppendedPrefix(part, of: stream, atMost: 5)
        #expect(row["bytes"] as? Int == part.count, "the record matches the part file: \(row)")
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/index.ts"))
    }

    @Test func transientSegmentFailuresAreRetriedAlone() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Segment 3 answers 503 with Retry-After: 1 twice; segment 6 drops mid-body once; 9 comes up short once.
        let stream = try HLSStream(
            server, name: "flaky", query: "segments=12&segsize=256k&err=3:503:2&retryafter=1&drop=6:100k&short=9:1000")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "-s", "3", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts")
        let requests = stream.segmentRequests()
        #expect(requests[3] == 3, "segment 3: two 503s then the bytes, got \(requests[3]) requests")
        #expect(requests[6] == 2 && requests[9] == 2, "segments 6 and 9 once more each: \(requests)")
        #expect(requests.indices.filter { ![3, 6, 9].contains($0) }.allSatisfy { requests[$0] == 1 },
                "only the failed segments are fetched again: \(requests)")
        #expect(stream.playlistRequests() == 1)
    }

    @Test func aForbiddenKeyFailsTheTaskNamingTheKey() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let stream = try HLSStream(server, name: "lock", query: "segments=6&segsize=64k&key=1&keyerr=403")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 1, "\(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.hasPrefix("key for segment 0: ") && error.contains("403"), "'\(error)'")
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/index.ts"))
    }

    @Test func aSegmentThatDoesNotDecryptFailsNamingIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let stream = try HLSStream(server, name: "pad", query: "segments=8&segsize=64k&key=1&badpad=4")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "-s", "2", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 1, "\(StreamRun.transcript(haul))")
        let error = StreamRun.failure(haul)
        #expect(error.hasPrefix("segment 4: does not decrypt"), "'\(error)'")
        let part = try #require(FileManager.default.contents(atPath: run.downloads + "/index.ts.part").map { [UInt8]($0) }, "the part file stays")
        Self.expectAppendedPrefix(part, of: stream, atMost: 4)
    }

    @Test func aKeyedByteRangeStreamWithSequenceNumberIVs() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let stream = try HLSStream(server, name: "single", query: "segments=10&segsize=100000&byterange=1&key=1&iv=seq&mediaseq=3")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "-s", "3", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("index.ts"), stream.expectedOutput(), "index.ts: ten ranges of stream.ts, decrypted")
        let ranges = server.stats("/hls/single/stream.ts").rangeHeaders
        #expect(ranges.count >= 10 && ranges.allSatisfy { $0?.hasPrefix("bytes=") == true }, "one range request per segment: \(ranges)")
    }

    @Test func aMasterOfGeneratedVariantsResolvesByHeightAndShowsTheStream() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        // Variants 540p, 1080p, 360p; AES-128; 24 segments of 128 KiB at 128 KiB/s per connection (12 s).
        let stream = try HLSStream(server, name: "abr", query: "segments=24&segsize=128k&variants=3&key=1&conncap=128k")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "-s", "2", "--stream-quality", "540", stream.url("master.m3u8")])
        defer { haul.terminate(SIGKILL) }
        // While it runs: the list shows the stream, its total an estimate.
        let running = try await eventuallyValue("a stream object with segments done", timeout: .seconds(30), poll: .milliseconds(100)) {
            () -> [String: Any]? in
            guard haul.isRunning else {
                throw StreamTestFailure(description: "haul ended before the list showed the stream running. \(StreamRun.transcript(haul))")
            }
            let row = try await run.list().first
            guard let object = StreamRun.stream(row), (object["segmentsDone"] as? Int ?? 0) > 0, row?["state"] as? String == "running"
            else { return nil }
            return row
        }
        let object = try #require(StreamRun.stream(running))
        #expect(object["segments"] as? Int == 24, "\(object)")
        #expect(object["estimated"] as? Bool == true, "the total is an estimate until the last segment: \(object)")
        #expect((running["total"] as? Int ?? 0) > 0, "an estimated total while running: \(running)")
        #expect(object["encryption"] as? String == "AES-128" && object["container"] as? String == "ts", "\(object)")
        #expect((object["variant"] as? String)?.hasPrefix("960x540, ") == true, "the variant as '960x540, 2.2 Mbit/s': \(object)")
        #expect(StreamRun.number(object["durationSeconds"]) == 48, "\(object)")

        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("master.ts"), stream.expectedOutput(track: .variant(0)), "master.ts is the 540p variant")
        #expect((1...2).allSatisfy { variant in (0..<24).allSatisfy { stream.requests(ofSegment: $0, track: .variant(variant)) == 0 } },
                "no other variant's segments were fetched")
        let event = try #require(StreamRun.streamEvent(haul), "\(StreamRun.transcript(haul))")
        #expect(event["fileName"] as? String == "master.ts" && StreamRun.fields(event)["segments"] as? Int == 24, "\(event)")
        let done = try #require(try await run.list().first)
        #expect(StreamRun.stream(done)?["estimated"] as? Bool == false && done["total"] as? Int == 24 * (128 << 10), "\(done)")
    }
}
