import Foundation
import Testing
@testable import HaulCore

/// The pure lifecycle rules of DESIGN §3.
@Suite struct TaskLifecycleTests {
    let policy = RetryPolicy(maxRetries: 2)
    let network = DownloadError.network(code: 56, message: "reset", host: "h")

    func running(bytes: Int64 = 0, attempts: Int = 0) -> DownloadTask {
        DownloadTask(id: TaskID(1), url: "http://h/x", directory: "/tmp", state: .running, position: 1,
                     bytesDone: bytes, attempts: attempts)
    }

    @Test func attemptsWithoutProgressRunOut() {
        var task = running(attempts: 2)
        (task, _) = TaskLifecycle.apply(.failed(network, durableBytes: 100), to: task, retryPolicy: policy, startedAt: 100)
        #expect(task.state == .failed)
        #expect(task.attempts == 3)
    }

    @Test func anAttemptThatMadeProgressStartsTheCountAgain() {
        let (task, effect) = TaskLifecycle.apply(
            .failed(network, durableBytes: 5000), to: running(bytes: 100, attempts: 2), retryPolicy: policy, startedAt: 100)
        #expect(task.state == .waiting)
        #expect(task.attempts == 1)
        #expect(effect == .retry(after: 1, error: network))
    }

    @Test func aNewAttemptAsksEveryLinkAgain() throws {
        var task = running()
        task.state = .waiting
        task.mirrors = ["http://m/x"]
        task.record(DroppedLink(url: "http://m/x", reason: "HTTP 404 from m — check the URL"))
        let started = try #require(TaskLifecycle.start(task))
        #expect(started.droppedLinks.isEmpty && started.mirrors == ["http://m/x"])
    }

    @Test func stoppingWhileRunningRequeues() {
        let (task, effect) = TaskLifecycle.apply(.paused(durableBytes: 42), to: running(), retryPolicy: policy)
        #expect(task.state == .waiting)
        #expect(task.bytesDone == 42)
        #expect(effect == .requeued)
    }

    @Test func aUserPauseWinsOverALateFailure() {
        var task = running()
        task.state = .paused
        let (after, effect) = TaskLifecycle.apply(.failed(network, durableBytes: 7), to: task, retryPolicy: policy)
        #expect(after.state == .paused)
        #expect(after.bytesDone == 7)
        #expect(effect == .stopped)
    }

    /// A failure that asks `--on-link-expired` for a new link leaves the task waiting, not failed; it fails only
    /// when no link came, and a pause the user gave meanwhile stands.
    @Test func anExpiredLinkWaitsForItsNewLinkAndFailsOnlyWithoutOne() throws {
        let gone = DownloadError.httpStatus(code: 410, reason: "Gone", host: "h", retryAfter: nil)
        let (waiting, effect) = TaskLifecycle.apply(
            .failed(gone, durableBytes: 0), to: running(), retryPolicy: policy, renewsLink: { _, error in error == gone })
        #expect(waiting.state == .waiting)
        #expect(effect == .awaitingLink(gone))
        let (failed, plain) = TaskLifecycle.apply(.failed(gone, durableBytes: 0), to: running(), retryPolicy: policy)
        #expect(failed.state == .failed && plain == .failed(gone))

        let notRenewed = try #require(TaskLifecycle.linkNotRenewed(waiting, error: gone))
        #expect(notRenewed.state == .failed && notRenewed.lastError == gone.description)
        var paused = waiting
        paused.state = .paused
        #expect(TaskLifecycle.linkNotRenewed(paused, error: gone) == nil)
    }

    @Test func diskTroublePausesWithTheReason() {
        let full = DownloadError.diskFull(path: "/d/x.part")
        let (task, effect) = TaskLifecycle.apply(.failed(full, durableBytes: 9), to: running(), retryPolicy: policy)
        #expect(task.state == .paused)
        #expect(task.lastError == full.description)
        #expect(effect == .pausedByError(full))
    }

    @Test func aFinishedLiveRecordingResumesAsANewRecordingPart() {
        var recorded = DownloadTask(id: TaskID(1), url: "http://127.0.0.1/live.m3u8", directory: "/d", state: .completed, position: 1)
        recorded.fileName = "live.ts"
        recorded.bytesDone = 4096
        recorded.totalBytes = 4096
        recorded.kind = .live
        recorded.stream = StreamInfo(tracks: [])
        let again = TaskLifecycle.resume(recorded)
        #expect(again?.state == .waiting && again?.fileName == nil && again?.stream == nil && again?.bytesDone == 0, "\(String(describing: again))")
        #expect(again?.requestedName == "live (2).ts")
        #expect(SafeFileName.next(after: "live (2).ts") == "live (3).ts" && SafeFileName.next(after: "(1)") == "(1) (2)")
        #expect(SafeFileName.next(after: "a (99999999999999999999).ts") == "a (99999999999999999999) (2).ts")
        // A finished file or video on demand is done.
        recorded.kind = .stream
        #expect(TaskLifecycle.resume(recorded) == nil)
    }

    @Test func resumeAndPauseOnlyFromTheRightStates() {
        var failed = running(attempts: 4)
        failed.state = .failed
        #expect(TaskLifecycle.resume(failed)?.state == .waiting)
        #expect(TaskLifecycle.resume(failed)?.attempts == 0)
        #expect(TaskLifecycle.resume(running()) == nil)
        var done = running()
        done.state = .completed
        #expect(TaskLifecycle.pause(done) == nil)
        #expect(TaskLifecycle.pause(running())?.state == .paused)
    }
}
