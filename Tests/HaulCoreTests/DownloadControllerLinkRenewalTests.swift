import Foundation
import HaulTestSupport
import Testing
@testable import HaulCore

/// `--on-link-expired` in the controller, with a scripted engine and a real command (DESIGN §8): a task whose link
/// is being renewed is not failed (no hook, event or notification says so); a link that expired before any byte
/// runs the command too; a link the command gave that expires again before a byte does not run it again.
@Suite(.timeLimit(.minutes(1))) struct DownloadControllerLinkRenewalTests {
    let store = MemoryTaskStore()
    let driver = ScriptedDriver()
    let directory: TemporaryDirectory
    let renewed = "http://127.0.0.1/renewed.bin"
    let gone = DownloadError.httpStatus(code: 410, reason: "Gone", host: "127.0.0.1", retryAfter: nil)

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A command that notes each call and prints `output` (exits with `status`).
    func command(printing output: String, status: Int = 0) throws -> LinkRenewal {
        let path = directory.file("renew.sh")
        try "#!/bin/sh\necho \"$@\" >> '\(directory.file("calls"))'\necho '\(output)'\nexit \(status)\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o755) == 0)
        return LinkRenewal(command: path)
    }

    var calls: [String] {
        ((try? String(contentsOfFile: directory.file("calls"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// A headless controller with `renewal`, its run, and every event it told (complete once the run ended).
    func run(_ renewal: LinkRenewal) async -> (DownloadController, Task<DownloadController.RunSummary, Never>, Task<[ControllerEvent], Never>) {
        var configuration = DownloadController.Configuration(maxConcurrent: 1, retryPolicy: RetryPolicy(maxRetries: 0), exitWhenIdle: true)
        configuration.linkRenewal = renewal
        let controller = DownloadController(store: store, driver: driver, snapshots: SnapshotBox(), configuration: configuration)
        await controller.perform(.add(newTasks(1)))
        let events = controller.events()
        let told = Task { await events.reduce(into: [ControllerEvent]()) { $0.append($1) } }
        return (controller, Task { await controller.run() }, told)
    }

    func startedURLs() -> [String] {
        driver.commands.compactMap { if case let .start(request) = $0 { request.url } else { nil } }
    }

    @Test func aTaskWhoseLinkIsRenewedIsNeverToldFailedAndCompletes() async throws {
        let (_, run, told) = await run(try command(printing: renewed))
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 4096)))
        try await eventually("the attempt with the new link", timeout: .seconds(20)) { driver.started.count == 2 }
        #expect(startedURLs().last == renewed)
        #expect(store.task(1)?.state != .failed)
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 8192)))
        let summary = await run.value
        let events = await told.value
        #expect(summary.completed == 1 && summary.failed == 0, "\(summary)")
        #expect(!events.contains { if case .failed = $0 { true } else { false } }, "\(events)")
        #expect(events.contains { if case .completed = $0 { true } else { false } })
        #expect(calls == ["0000000000000001 http://127.0.0.1/f1.bin"], "\(calls)")
    }

    /// `-j 1`: the link expired while the task waited in the queue; its first answer is a 410, before any byte.
    @Test func aLinkThatExpiredBeforeAnyByteRunsTheCommandToo() async throws {
        let (_, run, told) = await run(try command(printing: renewed))
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 0)))
        try await eventually("the attempt with the new link", timeout: .seconds(20)) { driver.started.count == 2 }
        #expect(startedURLs() == ["http://127.0.0.1/f1.bin", renewed])
        driver.emit(.finished(TaskID(1), .completed(fileName: "f1.bin", bytes: 8192)))
        #expect(await run.value.completed == 1)
        #expect(!(await told.value).contains { if case .failed = $0 { true } else { false } })
    }

    /// Once per link it gave: the new link expires too before a byte came from it, so the task fails, told once,
    /// and the command is not asked again.
    @Test func aGivenLinkThatExpiresBeforeAnyByteFailsTheTaskOnce() async throws {
        let (_, run, told) = await run(try command(printing: renewed))
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 0)))
        try await eventually("the attempt with the new link", timeout: .seconds(20)) { driver.started.count == 2 }
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 0)))
        let summary = await run.value
        let failures = (await told.value).filter { if case .failed = $0 { true } else { false } }
        #expect(summary.failed == 1 && failures.count == 1, "\(summary) \(failures)")
        #expect(calls.count == 1, "\(calls)")
        #expect(driver.started.count == 2)
        #expect(store.task(1)?.state == .failed && store.task(1)?.lastError == gone.description)
    }

    @Test func aCommandThatGivesNoLinkFailsTheTaskOnceWithTheLinksError() async throws {
        let (_, run, told) = await run(try command(printing: "", status: 3))
        try await eventually("the first attempt", timeout: .seconds(20)) { driver.started.count == 1 }
        driver.emit(.finished(TaskID(1), .failed(gone, durableBytes: 4096)))
        let summary = await run.value
        let events = await told.value
        let failures = events.compactMap { if case let .failed(task, error) = $0 { (task.state, error) } else { nil } }
        #expect(failures.count == 1 && failures.first?.0 == .failed && failures.first?.1 == gone, "\(events)")
        #expect(events.contains { if case let .warning(text) = $0 { text.contains("exited with status 3") } else { false } })
        #expect(summary.failed == 1 && driver.started.count == 1)
        #expect(store.task(1)?.state == .failed)
    }
}
