import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Live HLS recorded as it plays (issue 26 §3, DESIGN §11), on the fault server's growing playlists (`livestep=K`:
/// each playlist fetch lists K more segments, `window=W` slides, `EXT-X-ENDLIST` once all are listed). Deterministic
/// by fetch count, not by the clock: what each reload lists does not depend on when haul asks.
@Suite(.serialized, .timeLimit(.minutes(3))) struct StreamLiveTests {
    /// The clear bytes of `indices`, end to end: what a recording of them writes.
    static func output(_ stream: HLSStream, _ indices: [Int]) -> [UInt8] {
        indices.flatMap { stream.plan.clearSegment($0) }
    }

    static func row(_ run: HaulRun, id: Int = 1) async throws -> [String: Any] {
        try #require(try await run.list().first { $0["id"] as? Int == id })
    }

    @Test func aLiveStreamIsRecordedFromNearItsEdgeToItsEnd() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // The first fetch lists 0…4, each reload two more, up to 12 with an end list.
        let stream = try HLSStream(server, name: "live", query: "segments=12&segsize=16k&duration=0.5&livestep=2&livestart=5")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        // Joined three segments from the edge (2, 3, 4), then every new one once.
        expectSameBytes(run.file("index.ts"), Self.output(stream, Array(2..<12)), "index.ts recorded live")
        #expect(stream.segmentRequests().prefix(2) == [0, 0], "segments before the join are not fetched")
        #expect(stream.segmentRequests().dropFirst(2).allSatisfy { $0 == 1 }, "each new segment once: \(stream.segmentRequests())")
        #expect(stream.playlistRequests() >= 4, "reloaded as it grew: \(stream.playlistRequests())")
        let row = try await Self.row(run)
        let live = try #require(StreamRun.stream(row))
        #expect(row["kind"] as? String == "live" && row["state"] as? String == "completed", "\(row)")
        #expect(live["live"] as? Bool == true && live["recording"] as? Bool == false, "\(live)")
        #expect((live["ended"] as? String)?.contains("the stream ended") == true, "\(live)")
        #expect((live["gaps"] as? [Any])?.isEmpty == true && live["segmentsDone"] as? Int == 10, "\(live)")
        #expect(StreamRun.number(live["recordedSeconds"]) == 5, "\(live)")
    }

    @Test func theLiveLimitEndsTheRecordingAfterThatMuchMedia() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        let stream = try HLSStream(server, name: "limit", query: "segments=200&segsize=16k&duration=1&livestep=1&livestart=4")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--live-limit", "3s", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(StreamRun.transcript(haul))")
        expectSameBytes(run.file("index.ts"), Self.output(stream, [1, 2, 3]), "three seconds from the edge")
        let live = try #require(StreamRun.stream(try await Self.row(run)))
        #expect((live["ended"] as? String)?.contains("--live-limit") == true, "\(live)")
        #expect(stream.segmentRequests().dropFirst(4).allSatisfy { $0 == 0 }, "nothing past the limit is fetched")
        // A bad limit is refused before anything starts.
        let bad = try await run.run(["--headless", "--live-limit", "soon", stream.url()], directory: true)
        #expect(bad.0 == 2 && bad.2.contains("live-limit 'soon' is not valid"), "\(bad)")
    }

    @Test func segmentsThatLeftTheWindowUnseenAreGapsOnRecord() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // A window of 3 that moves 6 a reload: 3 segments leave unseen between reloads, four times, then it ends.
        let stream = try HLSStream(server, name: "gaps", query: "segments=30&segsize=16k&duration=0.5&livestep=6&livestart=3&window=3")
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", stream.url()])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        let kept = [0, 1, 2, 6, 7, 8, 12, 13, 14, 18, 19, 20, 24, 25, 26, 27, 28, 29]
        expectSameBytes(run.file("index.ts"), Self.output(stream, kept), "the segments listed, around the gaps")
        let live = try #require(StreamRun.stream(try await Self.row(run)))
        let gaps = try #require(live["gaps"] as? [[String: Any]], "\(live)")
        #expect(gaps.map { $0["segments"] as? Int } == [3, 3, 3, 3], "\(gaps)")
        #expect(gaps.compactMap { StreamRun.number($0["atSeconds"]) } == [1.5, 3, 4.5, 6], "\(gaps)")
        let listing = try await run.run(["list"])
        #expect(listing.1.contains("4 gaps"), "the plain list says so: \(listing.1)")
    }

    @Test func pausingALiveRecordingPublishesWhatItRecorded() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        let stream = try HLSStream(server, name: "stop", query: "segments=500&segsize=16k&duration=1&livestep=1&livestart=4")
        let run = try HaulRun()
        let runner = try run.start(["--headless", "--json", "-j", "2", stream.url(), StreamFaultTests.keepAlive(server)])
        defer { runner.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(4, of: run, while: runner)
        #expect(try await run.run(["pause", "1"]).0 == 0)
        try await eventually("task 1 completed", timeout: .seconds(10)) { !events(runner, named: "completed", id: 1).isEmpty }
        let row = try await Self.row(run)
        #expect(row["state"] as? String == "completed", "\(row)")
        let file = try #require(run.file("index.ts"))
        let count = file.count / stream.plan.segmentSize
        #expect(count >= 4 && file == Self.output(stream, Array(1..<(1 + count))), "whole segments from the join: \(file.count) bytes")
        let live = try #require(StreamRun.stream(row))
        #expect((live["ended"] as? String)?.contains("stopped by the user") == true, "\(live)")
        #expect(StreamRun.size(run, "index.ts.part") == nil, "published, no part file left")

        // Resumed, it records a new part beside the first, from the live edge.
        #expect(try await run.run(["resume", "1"]).0 == 0)
        try await eventually("a second part recording", timeout: .seconds(20), poll: .milliseconds(100)) {
            let again = try await Self.row(run)
            return again["state"] as? String == "running" && (StreamRun.stream(again)?["segmentsDone"] as? Int ?? 0) >= 2
        }
        #expect(try await run.run(["pause", "1"]).0 == 0)
        try await eventually("task 1 completed again", timeout: .seconds(10)) { events(runner, named: "completed", id: 1).count == 2 }
        let parts = StreamRun.names(run).filter { $0.hasSuffix(".ts") }
        #expect(parts == ["index (2).ts", "index.ts"] && run.file("index.ts") == file, "two parts, the first as it was: \(parts)")
    }

    @Test func aKilledRecordingGoesOnRightAfterItsLastSegment() async throws {
        let server = try FaultServer(lifetime: .seconds(170))
        defer { server.stop() }
        // Nothing slides out: a resumed recording finds every segment after the last it appended.
        let stream = try HLSStream(server, name: "kill", query: "segments=12&segsize=16k&duration=1&livestep=2&livestart=4")
        let run = try HaulRun()
        let first = try run.start(["--headless", stream.url()])
        defer { first.terminate(SIGKILL) }
        try await StreamRun.waitForSegments(3, of: run, while: first)
        first.kill(SIGKILL)
        #expect(try await first.waitForExit(timeout: .seconds(10)) == 128 + SIGKILL)
        let before = stream.segmentRequests()

        let second = try run.start(["--headless", "--json"], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(second))")
        expectSameBytes(run.file("index.ts"), Self.output(stream, Array(1..<12)), "one recording across the kill")
        let after = stream.segmentRequests()
        let recorded = try await StreamRun.segmentsDone(run)
        #expect(recorded == 11, "every segment from the join on record once")
        #expect(after.indices.filter { after[$0] > 1 }.count <= 4, "at most the segments in flight at the kill again: \(before) → \(after)")
        let live = try #require(StreamRun.stream(try await Self.row(run)))
        #expect((live["gaps"] as? [Any])?.isEmpty == true, "no gap: \(live)")
    }

    @Test func aLiveStreamFfmpegPublishesIsRecordedToTheLimitAndPlays() async throws {
        let nginx = try await NginxFixture.start()
        let directory = nginx.root + "/live"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A live encoder as TECH_NOTES §I.3 measured: 1 s segments, a sliding window of 6, old segments deleted.
        let encoder = try HaulProcess(URL(fileURLWithPath: FFmpegStreamFixture.ffmpeg), arguments: [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=48000", "-t", "60", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "6",
            "-hls_flags", "delete_segments", directory + "/live.m3u8",
        ])
        defer { encoder.terminate(SIGKILL) }
        try await eventually("three live segments", timeout: .seconds(30), poll: .milliseconds(100)) {
            let text = (try? String(contentsOfFile: directory + "/live.m3u8", encoding: .utf8)) ?? ""
            return text.components(separatedBy: "#EXTINF").count > 3
        }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--live-limit", "4s", nginx.url("/live/live.m3u8")])
        #expect(try await haul.waitForExit(timeout: .seconds(40)) == 0, "\(StreamRun.transcript(haul))")
        let path = run.downloads + "/live.ts"
        let duration = try #require(try await MediaCheck.duration(path), "ffprobe reads the recording")
        #expect(duration >= 3.5 && duration <= 6, "about four seconds of media: \(duration)")
        #expect(try await MediaCheck.streamCount(path) == 2, "video and audio")
        let errors = try await MediaCheck.decodeErrors(path)
        #expect(errors.isEmpty, "decodes cleanly: \(errors)")
    }

    @Test func aLiveDASHStreamFfmpegPublishesIsRecordedToTheLimitAndPlays() async throws {
        let nginx = try await NginxFixture.start(locations: """
            location /dash/ {
                types { application/dash+xml mpd; video/iso.segment m4s; }
            }
            """)
        let directory = nginx.root + "/dash"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // ffmpeg's live DASH: a dynamic manifest whose SegmentTimeline lists a window that slides (startNumber moves).
        let encoder = try HaulProcess(URL(fileURLWithPath: FFmpegStreamFixture.ffmpeg), arguments: [
            "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi",
            "-i", "sine=frequency=440:sample_rate=48000", "-t", "60", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "dash", "-seg_duration", "1", "-use_template", "1", "-use_timeline", "1",
            "-window_size", "6", "-extra_window_size", "4", directory + "/live.mpd",
        ])
        defer { encoder.terminate(SIGKILL) }
        try await eventually("three live DASH segments", timeout: .seconds(30), poll: .milliseconds(100)) {
            let text = (try? String(contentsOfFile: directory + "/live.mpd", encoding: .utf8)) ?? ""
            return text.contains("dynamic") && text.contains("r=\"2\"")
        }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--live-limit", "4s", nginx.url("/dash/live.mpd")])
        #expect(try await haul.waitForExit(timeout: .seconds(40)) == 0, "\(StreamRun.transcript(haul))")
        let path = run.downloads + "/live.mp4"
        let duration = try #require(try await MediaCheck.duration(path), "ffprobe reads the recording: \(StreamRun.names(run))")
        #expect(duration >= 3.5 && duration <= 6.5, "about four seconds of media: \(duration)")
        #expect(try await MediaCheck.streamCount(path) == 2, "video and audio")
        let errors = try await MediaCheck.decodeErrors(path)
        #expect(errors.isEmpty, "decodes cleanly: \(errors)")
        let row = try await Self.row(run)
        #expect(row["kind"] as? String == "live", "\(row)")
    }
}
