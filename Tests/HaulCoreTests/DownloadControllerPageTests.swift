import Foundation
import HaulTestSupport
import Testing
@testable import HaulCore

/// Video pages in the controller (DESIGN §11), with a scripted engine and a stand-in yt-dlp: a task whose link answered
/// a web page waits while the extractor runs, then takes the page's first video (link, headers, name) and the page's
/// other videos are added beside it in one group; an extractor that fails fails that task only.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerPageTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A stand-in yt-dlp that prints `output` and exits with `status`.
    func extractor(printing output: String, status: Int = 0) throws -> PageExtractor {
        let path = directory.file("yt-dlp")
        try "#!/bin/sh\ncat <<'EOF'\n\(output)\nEOF\necho 'ERROR: Unsupported URL: x' >&2\nexit \(status)\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return PageExtractor(executable: path)
    }

    func run(
        _ extractor: PageExtractor, tasks: Int, page: WebPage? = nil
    ) async -> (Task<DownloadController.RunSummary, Never>, Task<[ControllerEvent], Never>) {
        var configuration = DownloadController.Configuration(maxConcurrent: 3, retryPolicy: RetryPolicy(maxRetries: 0), exitWhenIdle: true)
        configuration.pageExtraction = .extractor(extractor)
        let controller = DownloadController(store: store, driver: driver, snapshots: SnapshotBox(), configuration: configuration)
        var added = newTasks(tasks)
        added[0].headers = ["User-Agent: mine"]
        added[0].page = page
        await controller.perform(.add(added))
        let events = controller.events()
        let told = Task { await events.reduce(into: [ControllerEvent]()) { $0.append($1) } }
        return (Task { await controller.run() }, told)
    }

    func starts() -> [TransferRequest] {
        driver.commands.compactMap { if case let .start(request) = $0 { request } else { nil } }
    }

    @Test func aPlaylistPageBecomesItsVideosInOneGroup() async throws {
        let page = #"""
            {"_type": "playlist", "title": "Two", "entries": [
             {"title": "First", "formats": [{"format_id": "a", "url": "http://127.0.0.1/1.mp4", "protocol": "http", "ext": "mp4",
              "http_headers": {"User-Agent": "theirs", "Referer": "http://127.0.0.1/f1.bin"}}]},
             {"title": "Second", "formats": [{"format_id": "m", "url": "http://127.0.0.1/v.m3u8", "manifest_url": "http://127.0.0.1/m.m3u8",
              "protocol": "m3u8_native"}]}]}
            """#
        let (run, _) = await run(try extractor(printing: page), tasks: 1)
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        #expect(starts().first?.options.extractsPages == true)
        driver.emit(.finished(TaskID(1), .failed(.webPage, durableBytes: 0)))
        try await eventually("both videos started", timeout: .seconds(20)) { driver.started.count == 3 }
        let first = try #require(starts().last { $0.id == TaskID(1) })
        #expect(first.url == "http://127.0.0.1/1.mp4")
        #expect(first.requestedName == "First.mp4")
        #expect(first.headers == ["User-Agent: mine", "Referer: http://127.0.0.1/f1.bin"])
        #expect(first.page == WebPage(url: "http://127.0.0.1/f1.bin", formatID: "a", stem: "First"))
        let second = try #require(starts().last { $0.id == TaskID(2) })
        #expect(second.url == "http://127.0.0.1/m.m3u8")
        #expect(second.requestedName == nil && second.nameStem == "Second")
        #expect(store.task(1)?.group == "Two" && store.task(2)?.group == "Two")
        #expect(store.task(1)?.linkHistory == ["http://127.0.0.1/f1.bin"])
        driver.emit(.finished(TaskID(1), .completed(fileName: "First.mp4", bytes: 10)))
        driver.emit(.finished(TaskID(2), .completed(fileName: "Second.ts", bytes: 10)))
        #expect(await run.value.completed == 2)
    }

    @Test func aFailingExtractorFailsThatTaskOnly() async throws {
        let (run, told) = await run(try extractor(printing: "null", status: 1), tasks: 2)
        try await eventually("both attempts", timeout: .seconds(20)) { driver.started.count == 2 }
        driver.emit(.finished(TaskID(1), .failed(.webPage, durableBytes: 0)))
        driver.emit(.finished(TaskID(2), .completed(fileName: "f2.bin", bytes: 10)))
        let summary = await run.value
        #expect(summary.completed == 1 && summary.failed == 1, "\(summary)")
        #expect(store.task(1)?.state == .failed)
        #expect(store.task(1)?.lastError == "no video from the page: ERROR: Unsupported URL: x")
        #expect(store.task(2)?.state == .completed)
        #expect((await told.value).filter { if case .failed = $0 { true } else { false } }.count == 1)
    }

    /// A video from a page whose link expired with bytes kept: the extractor is asked for the same format, and the fresh
    /// link continues the bytes (`set-url`'s same-file check); a page that no longer lists the format fails the task,
    /// saying both.
    @Test(arguments: [true, false])
    func anExpiredVideoLinkIsAskedForAgain(listed: Bool) async throws {
        let format = listed ? "0" : "9"
        let page = #"{"title": "P", "formats": [{"format_id": "\#(format)", "url": "http://127.0.0.1/fresh.mp4", "protocol": "http"}]}"#
        let (run, _) = await run(try extractor(printing: page), tasks: 1, page: WebPage(url: "http://127.0.0.1/p.html", formatID: "0"))
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        let gone = DownloadError.httpStatus(code: 410, reason: "Gone", host: "127.0.0.1", retryAfter: nil)
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 4096)))
        guard listed else {
            #expect(await run.value.failed == 1)
            #expect(store.task(1)?.lastError == "no video from the page: \(gone) — asked again: the page no longer lists format 0")
            return
        }
        try await eventually("the attempt with the fresh link", timeout: .seconds(20)) { driver.started.count == 2 }
        let again = try #require(starts().last)
        #expect(again.url == "http://127.0.0.1/fresh.mp4" && again.resumeFrom == 4096 && again.linkChange == .sameFile)
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 8192)))
        #expect(await run.value.completed == 1)
    }
}
