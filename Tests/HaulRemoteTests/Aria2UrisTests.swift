import HaulCore
import Testing
@testable import HaulRemote

/// `aria2.getUris` and `files[].uris[]`: a link is `used` once its task has run, as aria2 answers after a
/// download, and `waiting` before.
@Suite struct Aria2UrisTests {
    static func task(_ state: TaskState, bytesDone: Int64 = 0, attempts: Int = 0) -> DownloadTask {
        var task = DownloadTask(
            id: TaskID(1), url: "http://alice:hunter2@example.org/a.bin", directory: "/d", state: state, position: 1,
            bytesDone: bytesDone, attempts: attempts)
        task.mirrors = ["http://mirror.example/a.bin"]
        return task
    }

    static func statuses(_ task: DownloadTask) -> [String] {
        guard case let .array(entries) = Aria2Status.uris(of: task) else { return [] }
        return entries.map { entry in
            guard case let .object(fields) = entry, case let .string(status)? = fields["status"] else { return "?" }
            return status
        }
    }

    @Test(arguments: [
        (TaskState.completed, Int64(0), 0), (.running, 0, 0), (.failed, 0, 1), (.paused, 10, 0), (.waiting, 0, 2),
    ])
    func aTaskThatRanHasUsedItsLinks(state: TaskState, bytesDone: Int64, attempts: Int) {
        #expect(Self.statuses(Self.task(state, bytesDone: bytesDone, attempts: attempts)) == ["used", "used"])
    }

    @Test(arguments: [TaskState.waiting, .paused])
    func aTaskNotYetRunWaitsForItsLinks(state: TaskState) {
        #expect(Self.statuses(Self.task(state)) == ["waiting", "waiting"])
    }

    @Test func linksAreShownWithoutCredentialsAndADroppedOneWithItsReason() {
        var task = Self.task(.waiting)
        task.record(DroppedLink(url: "http://mirror.example/a.bin", reason: "HTTP 404"))
        #expect(Self.statuses(task) == ["waiting", "used"])
        let json = Aria2Status.uris(of: task)
        #expect(json == .array([
            .object(["uri": .string("http://example.org/a.bin"), "status": .string("waiting")]),
            .object(["uri": .string("http://mirror.example/a.bin"), "status": .string("used"), "reason": .string("HTTP 404")]),
        ]))
    }
}
