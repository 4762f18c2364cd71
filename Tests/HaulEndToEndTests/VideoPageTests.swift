import Foundation
import HaulTestSupport
import Testing

/// Video pages (DESIGN §11, issue 26 §4), through nginx on 127.0.0.1 to the built haul: a link that answers a web page
/// is asked `yt-dlp -J` what it holds, and the video it names is fetched under the page's title. Pages are the shapes
/// yt-dlp's html5 extractor reads (TECH_NOTES §I.4); the media are 4 s clips ffmpeg makes once per test process.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: FFmpegStreamFixture.isAvailable, "ffmpeg, ffprobe, openssl or nginx is not installed"))
struct VideoPageTests {
    static let seconds = 4.0

    /// yt-dlp on PATH (the pinned one `scripts/install-deps.sh` installs), nil without it.
    static let ytDLP: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/yt-dlp" }.first { access($0, X_OK) == 0 }
    }()

    /// `clip.mp4` and a copy `other.mp4` (video and audio), and the same clip as an HLS stream (`hls/master.m3u8`, one
    /// variant, 1 s segments), made once per test process, ffmpeg bounded.
    static let made = Task<String, any Error> {
        let path = FFmpegStreamFixture.directory + "-pages"
        atexit { try? FileManager.default.removeItem(atPath: FFmpegStreamFixture.directory + "-pages") }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path + "/hls", withIntermediateDirectories: true)
        try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffmpeg, [
            "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440",
            "-t", "\(Int(seconds))", "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
            "-c:a", "aac", "-movflags", "+faststart", path + "/clip.mp4",
        ], timeout: .seconds(60))
        try FileManager.default.copyItem(atPath: path + "/clip.mp4", toPath: path + "/other.mp4")
        try await FFmpegStreamFixture.run(FFmpegStreamFixture.ffmpeg, [
            "-nostdin", "-v", "error", "-i", path + "/clip.mp4", "-c", "copy", "-f", "hls", "-hls_time", "1",
            "-hls_playlist_type", "vod", "-master_pl_name", "master.m3u8", "-hls_segment_filename", path + "/hls/seg_%03d.ts",
            path + "/hls/index.m3u8",
        ], timeout: .seconds(60))
        let pages = [
            "one.html": #"<html><head><title>../../Evil "clip" |*: ..</title></head><body><video src="/media/clip.mp4"></video></body></html>"#,
            "hls.html": #"<html><head><title>HLS clip</title></head><body><video><source src="/media/hls/master.m3u8" type="application/x-mpegURL"></video></body></html>"#,
            "two.html": #"<html><head><title>Two clips</title></head><body><video src="/media/clip.mp4"></video><video src="/media/other.mp4"></video></body></html>"#,
            "novideo.html": "<html><head><title>Nothing</title></head><body><p>no video here</p></body></html>",
        ]
        for (name, text) in pages { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
        return path
    }

    /// nginx serving the pages under `/pages/` and the media under `/media/`.
    /// With `expiring`, a media link whose `t` token has a file `expired-TOKEN` beside it answers 410 Gone.
    static func serve(expiring: Bool = false) async throws -> NginxFixture {
        let source = try await made.value
        let nginx = try await NginxFixture.start(locations: """
            location /media/ {
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4; }
                \(expiring ? "if (-f $document_root/media/expired-$arg_t) { return 410; }" : "")
            }
            """)
        try FileManager.default.createDirectory(atPath: nginx.root + "/pages", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: nginx.root + "/media")
        for page in ["one", "hls", "two", "novideo"] {
            try FileManager.default.copyItem(atPath: source + "/\(page).html", toPath: nginx.root + "/pages/\(page).html")
        }
        return nginx
    }

    /// The whole tree under `root`, relative paths sorted: what a run wrote.
    static func tree(_ root: String) -> [String] {
        (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).sorted()
    }

    func checkPlays(_ path: String, _ what: String) async throws {
        #expect(try await MediaCheck.streamCount(path) == 2, "\(what): video and audio")
        let duration = try await MediaCheck.duration(path)
        #expect(duration.map { abs($0 - Self.seconds) <= 0.2 } == true, "\(what): ffprobe reads \(String(describing: duration)) s")
    }

    @Test(.enabled(if: ytDLP != nil, "yt-dlp is not installed (scripts/install-deps.sh test installs it)"))
    func aPageWithOneVideoGivesItUnderItsTitle() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let start = ContinuousClock.now
        let haul = try run.start(["--headless", "--json", nginx.url("/pages/one.html")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        let elapsed = ContinuousClock.now - start
        // The hostile title is a name inside the download directory, and nothing else was written anywhere in the run.
        let names = StreamRun.names(run)
        #expect(names.count == 1 && names[0].hasSuffix(".mp4") && names[0].contains("Evil") && !names[0].hasPrefix("."), "\(names)")
        #expect(Self.tree(run.root.path).filter { !$0.hasPrefix("state") } == ["downloads"] + names.map { "downloads/" + $0 })
        try await checkPlays(run.downloads + "/" + names[0], "one.html")
        #expect(run.file(names[0]) == FileManager.default.contents(atPath: nginx.root + "/media/clip.mp4").map { [UInt8]($0) })
        let row = try #require(try await run.list().first)
        let page = row["page"] as? [String: Any]
        #expect(page?["url"] as? String == nginx.url("/pages/one.html"))
        #expect(page?["format"] as? String == "0")
        #expect(row["url"] as? String == nginx.url("/media/clip.mp4"))
        #expect(row["group"] == nil)
        print("a page with one 4 s video took \(elapsed) end to end")
    }

    @Test(.enabled(if: ytDLP != nil, "yt-dlp is not installed (scripts/install-deps.sh test installs it)"))
    func anHLSPageGivesTheStreamFromItsMasterPlaylist() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--stream-quality", "worst", nginx.url("/pages/hls.html")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        // yt-dlp's html5 extractor numbers a page's videos in their titles.
        #expect(StreamRun.names(run) == ["HLS clip (1).ts"], "\(StreamRun.names(run))")
        try await checkPlays(run.downloads + "/HLS clip (1).ts", "hls.html")
        // haul was handed the master playlist (its own HLS code picks the variant), with the page as Referer.
        let uris = nginx.accessEntries().map(\.uri)
        #expect(uris.filter { $0 == "/media/hls/master.m3u8" }.count >= 2, "yt-dlp and haul each read the master: \(uris)")
        #expect(uris.filter { $0.hasSuffix(".ts") }.count == Int(Self.seconds), "\(uris)")
        let row = try await run.list().first
        #expect(row?["url"] as? String == nginx.url("/media/hls/master.m3u8"))
        #expect(StreamRun.stream(row)?["segmentsDone"] as? Int == Int(Self.seconds))
    }

    @Test(.enabled(if: ytDLP != nil, "yt-dlp is not installed (scripts/install-deps.sh test installs it)"))
    func aPageWithTwoVideosGivesATaskForEachInOneGroup() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", nginx.url("/pages/two.html")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["Two clips (1).mp4", "Two clips (2).mp4"], "\(StreamRun.names(run))")
        for name in StreamRun.names(run) { try await checkPlays(run.downloads + "/" + name, name) }
        let rows = try await run.list()
        #expect(rows.count == 2)
        #expect(rows.map { $0["group"] as? String } == ["Two clips", "Two clips"], "\(rows)")
        #expect(Set(rows.compactMap { $0["url"] as? String }) == [nginx.url("/media/clip.mp4"), nginx.url("/media/other.mp4")])
        #expect(rows.allSatisfy { $0["state"] as? String == "completed" })
    }

    @Test(.enabled(if: ytDLP != nil, "yt-dlp is not installed (scripts/install-deps.sh test installs it)"))
    func aPageWithNoVideoFailsWithYtDlpsErrorAndLeavesOtherTasksAlone() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", nginx.url("/pages/novideo.html"), nginx.url("/media/other.mp4")])
        #expect(try await haul.waitForExit(timeout: .seconds(60)) != 0, "\(StreamRun.transcript(haul))")
        let failure = StreamRun.failure(haul)
        #expect(failure.contains("ERROR: Unsupported URL: \(nginx.url("/pages/novideo.html"))"), "\(failure)")
        #expect(StreamRun.names(run) == ["other.mp4"], "\(StreamRun.names(run))")
        let rows = try await run.list().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        #expect(rows.map { $0["state"] as? String } == ["failed", "completed"])
    }

    /// Without yt-dlp (`--extractor none`, or one that is not there) the page is the file it is, and the task says why.
    @Test(arguments: [("none", "--extractor none"), ("/nonexistent/yt-dlp", "/nonexistent/yt-dlp is not a program")])
    func withoutAnExtractorThePageIsKeptAndSaysWhy(option: String, said: String) async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let haul = try run.start(["--headless", "--json", "--extractor", option, nginx.url("/pages/one.html")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(StreamRun.transcript(haul))")
        #expect(StreamRun.names(run) == ["one.html"])
        #expect(run.file("one.html") == FileManager.default.contents(atPath: nginx.root + "/pages/one.html").map { [UInt8]($0) })
        let note = (try await run.list().first?["page"] as? [String: Any])?["note"] as? String ?? ""
        #expect(note.contains("a web page, kept as it is") && note.contains(said), "\(note)")
        #expect(haul.stdoutText().contains("kept as it is"), "the run says it too: \(StreamRun.transcript(haul))")
        #expect(!nginx.accessEntries().contains { $0.uri.hasPrefix("/media/") })
    }

    /// A stand-in yt-dlp that records each run and answers `answer`: it never runs for a link that is not a page, and
    /// an answer with hostile values fails that page's task only, writing nothing outside the download directory.
    @Test func aFileLinkNeverRunsTheExtractorAndAHostileAnswerFailsOnlyItsPage() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let run = try HaulRun()
        let marker = run.root.path + "/runs"
        let answer = #"""
            {"_type": "playlist", "title": "../../../tmp/x", "entries": [
              {"id": "a", "title": "../../escape", "formats": [{"format_id": "f", "url": "file:///etc/passwd", "protocol": "http", "ext": "mp4",
               "height": -1, "tbr": 1e308}]},
              {"id": "b", "title": "/etc/passwd", "formats": [{"format_id": "m", "manifest_url": "file:///etc/passwd", "protocol": "m3u8_native"}]}]}
            """#
        try answer.write(toFile: run.root.path + "/answer.json", atomically: true, encoding: .utf8)
        let script = run.root.path + "/fake-yt-dlp"
        try "#!/bin/sh\necho \"$4\" >> '\(marker)'\ncat '\(run.root.path)/answer.json'\n".write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let haul = try run.start(["--headless", "--json", "--extractor", script, nginx.url("/media/clip.mp4"), nginx.url("/pages/one.html")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) != 0, "\(StreamRun.transcript(haul))")
        let runs = (try? String(contentsOfFile: marker, encoding: .utf8)) ?? ""
        #expect(runs == nginx.url("/pages/one.html") + "\n", "the extractor ran for: \(runs)")
        #expect(StreamRun.failure(haul).contains("no format haul can fetch"), "\(StreamRun.failure(haul))")
        #expect(StreamRun.names(run) == ["clip.mp4"])
        #expect(Self.tree(run.root.path).filter { !$0.hasPrefix("state") }.sorted()
                == ["answer.json", "downloads", "downloads/clip.mp4", "fake-yt-dlp", "runs"])
        let rows = try await run.list().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        #expect(rows.map { $0["state"] as? String } == ["completed", "failed"], "\(rows)")
    }

    /// A video found on a page whose link expires (410) while bytes are kept: haul asks the extractor again for the same
    /// format and goes on from the kept bytes with the fresh link, no `--on-link-expired` needed. The stand-in yt-dlp
    /// gives a new token on each run; nginx answers 410 to a token once it is marked expired.
    @Test func anExpiredLinkAsksTheExtractorAgainAndKeepsTheBytes() async throws {
        let nginx = try await Self.serve(expiring: true)
        defer { nginx.stop() }
        let run = try HaulRun()
        let counter = run.root.path + "/runs"
        let script = run.root.path + "/fake-yt-dlp"
        let clip = nginx.url("/media/clip.mp4")
        try """
            #!/bin/sh
            echo run >> '\(counter)'
            n=$(wc -l < '\(counter)')
            printf '{"id": "e", "title": "Expiring", "formats": [{"format_id": "0", "url": "\(clip)?t=%s", "protocol": "http", "ext": "mp4"}]}' "$n"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        #expect(chmod(script, 0o755) == 0)
        let page = nginx.url("/pages/one.html")
        let first = try run.start(["--headless", "--extractor", script, "--limit-rate", "16K", page])
        defer { first.terminate(SIGKILL) }
        try await eventually("bytes of the video on record", timeout: .seconds(30), poll: .milliseconds(100)) {
            guard first.isRunning else { throw StreamTestFailure(description: "haul ended first. \(StreamRun.transcript(first))") }
            return (try await run.list().first?["bytes"] as? Int ?? 0) > 0
        }
        // Interrupted as Ctrl-C does: the bytes so far are synced and recorded, the task waits for the next run.
        first.kill(SIGINT)
        _ = try await first.waitForExit(timeout: .seconds(10))
        let kept = try #require(try await run.list().first?["bytes"] as? Int)
        #expect(kept > 0 && kept < 109_110, "bytes kept: \(kept)")
        // The first token expires: the resumed request is refused, and the extractor gives the second.
        #expect(FileManager.default.createFile(atPath: nginx.root + "/media/expired-1", contents: Data()))
        let second = try run.start(["--headless", "--extractor", script], directory: false)
        #expect(try await second.waitForExit(timeout: .seconds(30)) == 0, "\(StreamRun.transcript(second))")
        #expect(StreamRun.names(run) == ["Expiring.mp4"])
        #expect(run.file("Expiring.mp4") == FileManager.default.contents(atPath: nginx.root + "/media/clip.mp4").map { [UInt8]($0) })
        #expect((try? String(contentsOfFile: counter, encoding: .utf8))?.split(separator: "\n").count == 2)
        let entries = nginx.accessEntries().filter { $0.uri.hasPrefix("/media/clip.mp4") }
        #expect(entries.contains { $0.uri.hasSuffix("?t=1") && $0.status == 410 }, "\(entries)")
        // The fresh link continued the kept bytes: its request asked for the rest only.
        let resumed = entries.filter { $0.uri.hasSuffix("?t=2") }
        #expect(resumed.count == 1 && resumed[0].status == 206 && resumed[0].range == "bytes=\(kept)-", "kept \(kept): \(resumed)")
    }
}
