import Foundation
@testable import HaulCore
import HaulTestSupport
import Testing

/// `--notify`: what a notification says, and that a run waits (bounded) for those on their way.
@Suite(.timeLimit(.minutes(1))) struct DesktopNotificationTests {
    /// The specification allows markup only in the body: the summary keeps `<` and `&`, the body escapes them.
    @Test func onlyTheBodyIsMarkupEscaped() {
        let task = DownloadTask(
            id: TaskID(1), url: "http://127.0.0.1/a.bin", directory: "/tmp/<d>", fileName: "<i>ok&.bin",
            state: .completed, position: 1)
        let (summary, body) = DesktopNotification.message(for: task)
        #expect(summary == "Downloaded <i>ok&.bin")
        #expect(body == "/tmp/&lt;d&gt;/&lt;i&gt;ok&amp;.bin")
    }

    /// Ending the hooks waits for a notify-send that takes its time (as one talking to D-Bus does), so the last
    /// completion of a run is not lost when the process exits.
    @Test func theHooksWaitForNotificationsOnTheirWay() async throws {
        let directory = try TemporaryDirectory()
        let script = directory.path + "/notify-send"
        let log = directory.path + "/notify.log"
        try "#!/bin/sh\nsleep 0.5\nprintf '%s\\n' \"$*\" >> '\(log)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let notifications = DesktopNotification(command: script)
        let hooks = DownloadHooks(notifications: notifications)
        let (events, sink) = AsyncStream.makeStream(of: ControllerEvent.self)
        for id in 1...3 {
            sink.yield(.completed(DownloadTask(
                id: TaskID(Int64(id)), url: "http://127.0.0.1/\(id).bin", directory: directory.path,
                fileName: "\(id).bin", state: .completed, position: Int64(id))))
        }
        sink.finish()
        await hooks.run(events: events) { _ in }
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? []
        #expect(lines.count == 3, "\(lines)")
        #expect(notifications.deliveries.count == 0)
    }

    /// A notification that never arrives holds the end for the given time only: the wait gives up (a wait without
    /// a bound would hold the test to its time limit). No wall-clock figure: how soon this test's task runs again
    /// after the timer fired depends on what else the machine runs (9.6 s once, beside a build and parallel tests).
    @Test func theWaitIsBounded() async {
        let deliveries = PendingDeliveries()
        deliveries.started()
        #expect(await deliveries.waitForAll(timeout: .milliseconds(200)) == false)
        deliveries.ended()
        #expect(await deliveries.waitForAll(timeout: .seconds(5)) == true)
    }
}
