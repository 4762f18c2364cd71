import Foundation
import HaulCore
import HaulTestSupport
import Testing

/// What a yt-dlp that misbehaves gives (DESIGN §11): a reason for that page, never a hang or a crash. Run against small
/// scripts standing in for yt-dlp.
@Suite(.timeLimit(.minutes(1))) struct PageExtractorTests {
    func extractor(_ body: String, timeout: Duration = .seconds(20)) throws -> (TemporaryDirectory, PageExtractor) {
        let dir = try TemporaryDirectory()
        let path = dir.path + "/yt-dlp"
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return (dir, PageExtractor(executable: path, timeout: timeout))
    }

    @Test func itsArgumentsAndAnswerAreRead() async throws {
        let (dir, extractor) = try extractor(#"echo "{\"id\": \"$4\", \"title\": \"$1 $2 $3\"}""#)
        let page = try await extractor.extract("http://127.0.0.1:1/p.html").get()
        #expect(page.id == "http://127.0.0.1:1/p.html")
        #expect(page.title == "-J --no-warnings --")
        _ = dir
    }

    @Test func itAsksThroughTheTasksProxiesNotTheEnvironments() async throws {
        let (dir, extractor) = try extractor(#"echo "{\"id\": \"${http_proxy:-none} ${HTTPS_PROXY:-none} ${no_proxy:-none}\"}""#)
        let proxies = ProxySettings(http: "http://u:p@127.0.0.1:3128", https: nil, noProxy: "localhost")
        #expect(try await extractor.extract("http://127.0.0.1:1/", proxies: proxies).get().id == "http://u:p@127.0.0.1:3128 none localhost")
        _ = dir
    }

    @Test func aFailureKeepsItsLastErrorLine() async throws {
        let (dir, extractor) = try extractor("echo null; echo 'ERROR: first' >&2; echo 'ERROR: Unsupported URL: x' >&2; exit 1")
        #expect(await extractor.extract("http://127.0.0.1:1/") == .failure(.failed(status: 1, error: "ERROR: Unsupported URL: x")))
        _ = dir
    }

    @Test func aHangIsCutAtTheTimeout() async throws {
        let (dir, extractor) = try extractor("exec sleep 300", timeout: .milliseconds(300))
        let start = ContinuousClock.now
        #expect(await extractor.extract("http://127.0.0.1:1/") == .failure(.timedOut(.milliseconds(300))))
        #expect(ContinuousClock.now - start < .seconds(25))
        _ = dir
    }

    @Test func aChildLeftHoldingTheOutputDoesNotHangIt() async throws {
        let (dir, extractor) = try extractor("sleep 40 &\necho '{\"id\": \"x\"}'", timeout: .milliseconds(500))
        let start = ContinuousClock.now
        let answer = await extractor.extract("http://127.0.0.1:1/")
        #expect(answer == .failure(.timedOut(.milliseconds(500))) || answer == .failure(.unreadable("a process yt-dlp started still holds its output")))
        #expect(ContinuousClock.now - start < .seconds(25))
        _ = dir
    }

    @Test func aHugeAnswerIsRefused() async throws {
        let (dir, extractor) = try extractor("printf '{\"title\": \"'; head -c 20000000 /dev/zero | tr '\\000' a")
        #expect(await extractor.extract("http://127.0.0.1:1/") == .failure(.tooLarge(limit: PageExtractor.outputLimit)))
        _ = dir
    }

    @Test func aProgramThatCannotStartSaysSo() async {
        let extractor = PageExtractor(executable: "/nonexistent/yt-dlp")
        guard case .failure(.cannotStart) = await extractor.extract("http://127.0.0.1:1/") else {
            Issue.record("a missing program started")
            return
        }
    }
}
