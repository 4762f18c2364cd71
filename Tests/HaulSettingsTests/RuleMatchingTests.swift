import Foundation
import HaulCore
import Testing

/// Rules by host glob and categories by extension or content type, as the intake applies them.
@Suite struct RuleMatchingTests {
    @Test func hostGlobs() {
        let glob = HostGlob("*.example.org")
        #expect(glob.matches("a.example.org") && glob.matches("a.b.EXAMPLE.org"))
        #expect(!glob.matches("example.org") && !glob.matches("example.org.evil.net") && !glob.matches("aexample.org"))
        #expect(HostGlob("localhost").matches("localhost") && !HostGlob("localhost").matches("127.0.0.1"))
        #expect(HostGlob("127.0.0.1").matches("127.0.0.1") && !HostGlob("127.0.0.1").matches("localhost"))
        #expect(HostGlob("mirror?.example.net").matches("mirror1.example.net") && !HostGlob("mirror?.example.net").matches("mirror.example.net"))
        #expect(HostGlob("*").matches("anything") && HostGlob("a*b*c").matches("aXbYc") && !HostGlob("a*b*c").matches("aXbY"))
    }

    @Test func categoriesByExtensionAndContentType() {
        let video = DownloadCategory(extensions: ["mp4", ".MKV"], contentTypes: ["video/*", "application/x-mpegurl"], directory: "/v", origin: "c:1")
        #expect(video.matches(fileName: "a.mp4") && video.matches(fileName: "B.MKV") && !video.matches(fileName: "mp4") && !video.matches(fileName: ".mp4"))
        #expect(!video.matches(fileName: "a.mp4.part") && !video.matches(fileName: "a.iso"))
        #expect(video.matches(contentType: "video/mp4") && video.matches(contentType: "Video/WebM; codecs=vp9"))
        #expect(video.matches(contentType: "application/x-mpegURL") && !video.matches(contentType: "application/octet-stream"))
        #expect(!video.matches(contentType: ""))
    }

    static func intake(_ rules: IntakeRules) -> TaskIntake {
        var intake = TaskIntake(defaultDirectory: "/downloads")
        intake.rules = rules
        return intake
    }

    static let rules: [HostRule] = {
        var local = HostRule(host: "localhost", origin: "c.toml:3")
        local.allProxy = "http://127.0.0.1:8888"
        local.split = 2
        local.rateLimit = 1 << 20
        local.userAgent = "ruled"
        local.headers = ["X-Rule: 1"]
        local.directory = "/ruled"
        return [local]
    }()

    @Test func theFirstMatchingRuleSetsWhatTheRequestLeftOpen() throws {
        let intake = Self.intake(IntakeRules(rules: Self.rules))
        let ruled = try intake.newTask(TaskRequest(url: "http://localhost:8080/a.bin", headers: ["User-Agent: file", "X-Own: 2"]))
        #expect(ruled.directory == "/ruled")
        #expect(ruled.requestOptions.proxies?.http == "http://127.0.0.1:8888")
        #expect(ruled.requestOptions.split == 2 && ruled.requestOptions.rateLimit == 1 << 20)
        #expect(ruled.headers == ["X-Own: 2", "X-Rule: 1", "User-Agent: ruled"])
        #expect(ruled.requestOptions.rule == "host = \"localhost\" (c.toml:3)")
        let direct = try intake.newTask(TaskRequest(url: "http://127.0.0.1:8080/a.bin"))
        #expect(direct.directory == "/downloads" && direct.requestOptions.proxies?.http == nil && direct.requestOptions.rule == nil)
        // A directory the request names itself wins.
        let own = try intake.newTask(TaskRequest(url: "http://localhost:8080/a.bin", directory: "/own"))
        #expect(own.directory == "/own")
    }

    @Test func whatTheCommandLineGaveWinsOverRules() throws {
        let intake = Self.intake(IntakeRules(rules: Self.rules, pinned: [.dir, .split, .limitRate, .userAgent, .allProxy]))
        var request = TaskRequest(url: "http://localhost:8080/a.bin", headers: ["User-Agent: typed"])
        request.access.allProxy = ""
        let task = try intake.newTask(request)
        #expect(task.directory == "/downloads" && task.requestOptions.split == nil && task.requestOptions.rateLimit == nil)
        #expect(task.headers == ["User-Agent: typed", "X-Rule: 1"])
        #expect(task.requestOptions.proxies?.http == nil)
        #expect(task.requestOptions.rule != nil, "the rule still applied (its other settings)")
    }

    @Test func whatARequestGaveForItselfWinsOverRulesToo() throws {
        let intake = Self.intake(IntakeRules(rules: Self.rules))
        // An RPC call's or an input-file entry's own proxy and user agent.
        var request = TaskRequest(url: "http://localhost:8080/a.bin", headers: ["User-Agent: own"])
        request.access.allProxy = ""
        request.given = [.allProxy, .header, .userAgent]
        let task = try intake.newTask(request)
        #expect(task.requestOptions.proxies?.http == nil, "its own direct connection, not the rule's proxy")
        #expect(task.headers.first == "User-Agent: own" && !task.headers.contains("User-Agent: ruled"), "\(task.headers)")
        let file = Data("http://localhost:8080/b.bin\n  all-proxy=\n".utf8)
        let parsed = try InputFile.parse(file, intake: intake)
        #expect(parsed.tasks.first?.requestOptions.proxies?.http == nil, "an entry's all-proxy= line wins over the rule")
    }

    @Test func aCategoryByExtensionChoosesTheDirectoryAtIntake() throws {
        let video = DownloadCategory(extensions: ["mp4"], directory: "videos", origin: "c.toml:9")
        let byType = DownloadCategory(contentTypes: ["application/zip"], directory: "/archives", origin: "c.toml:13")
        let intake = Self.intake(IntakeRules(categories: [video, byType]))
        let clip = try intake.newTask(TaskRequest(url: "http://127.0.0.1/clip.mp4"))
        #expect(clip.directory == "/downloads/videos" && clip.requestOptions.category == "category mp4 (c.toml:9)")
        #expect(clip.requestOptions.contentTypeDirectories == nil)
        let named = try intake.newTask(TaskRequest(url: "http://127.0.0.1/get?id=3", output: "film.MP4"))
        #expect(named.directory == "/downloads/videos", "the -o name counts")
        let other = try intake.newTask(TaskRequest(url: "http://127.0.0.1/get?id=4"))
        #expect(other.directory == "/downloads")
        #expect(other.requestOptions.contentTypeDirectories == [
            ContentTypeDirectory(contentType: "application/zip", directory: "/archives", category: "category application/zip (c.toml:13)")])
        let pinned = try Self.intake(IntakeRules(categories: [video], pinned: [.dir])).newTask(TaskRequest(url: "http://127.0.0.1/clip.mp4"))
        #expect(pinned.directory == "/downloads" && pinned.requestOptions.category == nil)
    }

    @Test func aPlaylistLinkGoesWhereItsVideoWill() throws {
        let video = DownloadCategory(extensions: ["ts", "mp4"], directory: "/videos", origin: "c.toml:9")
        let intake = Self.intake(IntakeRules(categories: [video]))
        #expect(try intake.newTask(TaskRequest(url: "http://127.0.0.1/v/index.m3u8")).directory == "/videos")
        var off = TaskRequest(url: "http://127.0.0.1/v/index.m3u8")
        off.access.stream = "off"
        #expect(try intake.newTask(off).directory == "/downloads", "with streams off the playlist is a file, not a video")
        #expect(IntakeRules.categoryNames(for: "Master.M3U8", streamOff: false) == ["Master.M3U8", "Master.ts", "Master.mp4"])
    }

    @Test func oldStoredOptionsStillDecode() throws {
        let old = Data(#"{"proxies":{"http":"http://p:1"},"cookiesFile":"/c"}"#.utf8)
        let options = try JSONDecoder().decode(RequestOptions.self, from: old)
        #expect(options.proxies?.http == "http://p:1" && options.rule == nil && options.split == nil)
    }
}
