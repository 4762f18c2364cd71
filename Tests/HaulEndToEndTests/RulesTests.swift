import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `[[rule]]` and `[[category]]` of the settings file through the built binary (DESIGN §10, issue 16 §2): a rule
/// sends `localhost` through tinyproxy while `127.0.0.1` goes direct (both stay on loopback; the proxy's log
/// and the origin's `Via` say which went through it); a category routes `.mp4` into another directory; what
/// applied is shown by `haul list --json`; the command line wins over rules.
@Suite(.timeLimit(.minutes(1))) struct RulesTests {
    @Test(.enabled(if: NginxFixture.isAvailable && TinyproxyFixture.isAvailable, "nginx or tinyproxy is not installed"))
    func aRuleSendsOneHostThroughTheProxyAndTheOtherDirect() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let viaProxy = LinkTests.bytes(300_000, seed: 1601)
        let direct = LinkTests.bytes(200_000, seed: 1602)
        try nginx.write(file: "proxied.bin", bytes: viaProxy)
        try nginx.write(file: "direct.bin", bytes: direct)
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let run = try HaulRun()
        let file = try SettingsTests.settingsFile(run, """
            dir = "\(run.downloads)"

            [[rule]]
            host = "localhost"
            all-proxy = "\(proxy.url)"
            """)
        let proxiedURL = nginx.url("/proxied.bin").replacingOccurrences(of: "://127.0.0.1:", with: "://localhost:")
        let directURL = nginx.url("/direct.bin")
        let haul = try run.start(["--headless", "--config", file, proxiedURL, directURL], directory: false)
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("proxied.bin"), viaProxy)
        expectSameBytes(run.file("direct.bin"), direct)

        let logged = try await eventuallyValue("tinyproxy's log of the localhost request", timeout: .seconds(5)) {
            let found = proxy.requests().filter { $0.contains("/proxied.bin") }
            return found.isEmpty ? nil : found
        }
        #expect(logged.allSatisfy { $0.contains("localhost:\(nginx.port)") }, "\(logged)")
        #expect(!proxy.requests().contains { $0.contains("/direct.bin") }, "127.0.0.1 is another host: \(proxy.requests())")
        let entries = await nginx.entries { entries in
            entries.contains { $0.uri == "/proxied.bin" && $0.status / 100 == 2 } && entries.contains { $0.uri == "/direct.bin" && $0.status / 100 == 2 }
        }
        let proxied = entries.filter { $0.uri == "/proxied.bin" }
        let straight = entries.filter { $0.uri == "/direct.bin" }
        #expect(!proxied.isEmpty && proxied.allSatisfy { $0.via?.contains("tinyproxy") == true }, "\(proxied)")
        #expect(!straight.isEmpty && straight.allSatisfy { $0.via == nil }, "\(straight)")

        // `haul list --json` says which rule applied, and to which task only.
        let rows = try await run.list()
        let ruled = rows.first { ($0["url"] as? String)?.contains("localhost") == true }
        let plain = rows.first { ($0["url"] as? String)?.contains("127.0.0.1") == true }
        #expect(ruled?["rule"] as? String == "host = \"localhost\" (\(file):3)", "\(rows)")
        #expect(plain?["rule"] == nil, "\(rows)")
    }

    @Test(.enabled(if: NginxFixture.isAvailable && TinyproxyFixture.isAvailable, "nginx or tinyproxy is not installed"))
    func theCommandLinesProxyWinsOverTheRule() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(100_000, seed: 1603)
        try nginx.write(file: "own.bin", bytes: bytes)
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let run = try HaulRun()
        let file = try SettingsTests.settingsFile(run, "[[rule]]\nhost = \"localhost\"\nall-proxy = \"\(proxy.url)\"\n")
        let url = nginx.url("/own.bin").replacingOccurrences(of: "://127.0.0.1:", with: "://localhost:")
        let (status, _, err) = try await run.run(["--headless", "--config", file, "--all-proxy", "", "-d", run.downloads, url])
        #expect(status == 0, "\(err)")
        expectSameBytes(run.file("own.bin"), bytes)
        let entries = await nginx.entries { $0.contains { $0.uri == "/own.bin" && $0.status / 100 == 2 } }
        #expect(entries.filter { $0.uri == "/own.bin" }.allSatisfy { $0.via == nil }, "--all-proxy \"\" (direct) wins: \(entries)")
        #expect(!proxy.requests().contains { $0.contains("/own.bin") })
    }

    @Test func aCategoryRoutesMP4IntoItsDirectory() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/clip.mp4", .file(size: 120_000, seed: 11))
        server.route("/notes.txt", .file(size: 4_000, seed: 12))
        let run = try HaulRun()
        let videos = run.root.path + "/videos"
        let file = try SettingsTests.settingsFile(run, """
            dir = "\(run.downloads)"

            [[category]]
            extensions = ["mp4", "mkv", "ts"]
            dir = "\(videos)"
            """)
        let (status, _, err) = try await run.run(["--headless", "--config", file, server.url("/clip.mp4"), server.url("/notes.txt")])
        #expect(status == 0, "\(err)")
        #expect(FileManager.default.contents(atPath: videos + "/clip.mp4")?.count == 120_000)
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/clip.mp4"))
        #expect(run.file("notes.txt")?.count == 4_000, "other files stay in dir")
        let rows = try await run.list()
        let clip = rows.first { $0["name"] as? String == "clip.mp4" }
        #expect(clip?["directory"] as? String == videos)
        #expect(clip?["category"] as? String == "category mp4,mkv,ts (\(file):3)", "\(rows)")
        #expect(rows.first { $0["name"] as? String == "notes.txt" }?["category"] == nil)

        // `haul add` takes the same file; -d on the command line wins over the category.
        server.route("/other.mp4", .file(size: 1_000, seed: 13))
        let (added, _, addErr) = try await run.run(["add", "--config", file, "-d", run.downloads, server.url("/other.mp4")])
        #expect(added == 0, "\(addErr)")
        let other = try await run.list().first { $0["name"] as? String == "other.mp4" }
        #expect(other?["directory"] as? String == run.downloads && other?["category"] == nil)
    }

    /// A link whose name says nothing (`/watch?v=7`): the server's `Content-Type` decides, at the first answer,
    /// before the name is decided; the file and its part file never touch the default directory.
    @Test func aCategoryByContentTypeAppliesAtTheFirstResponse() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var video = FaultPlan.file(size: 90_000, seed: 21)
        video.contentType = "video/mp4"
        server.route("/watch", video)
        server.route("/data", .file(size: 5_000, seed: 22))
        let run = try HaulRun()
        let videos = run.root.path + "/videos"
        let file = try SettingsTests.settingsFile(run, """
            dir = "\(run.downloads)"
            [[category]]
            content-types = ["video/*"]
            dir = "\(videos)"
            """)
        let (status, _, err) = try await run.run(
            ["--headless", "--config", file, server.url("/watch") + "?v=7", server.url("/data")])
        #expect(status == 0, "\(err)")
        #expect(FileManager.default.contents(atPath: videos + "/watch")?.count == 90_000)
        #expect(!FileManager.default.fileExists(atPath: run.downloads + "/watch"))
        #expect(run.file("data")?.count == 5_000, "application/octet-stream stays in dir")
        let rows = try await run.list()
        let clip = rows.first { $0["name"] as? String == "watch" }
        #expect(clip?["directory"] as? String == videos && clip?["category"] as? String == "category video/* (\(file):2)", "\(rows)")
        #expect(rows.first { $0["name"] as? String == "data" }?["directory"] as? String == run.downloads)
    }
}
