import HaulCore
import Testing
@testable import HaulTUI

/// The terminal title: overall progress of what is left, numbers only.
struct TerminalTitleTests {
    static func row(_ id: Int64, _ state: TaskState, done: Int64, total: Int64?, name: String = "f.bin") -> QueueSnapshot.Row {
        var task = DownloadTask(id: TaskID(id), url: "http://127.0.0.1/\(name)", directory: "/d", state: state, position: id)
        task.totalBytes = total
        task.fileName = name
        return QueueSnapshot.Row(task: task, bytesReceived: done)
    }

    @Test func runningTasksShowTheQueuesProgressAndSpeed() {
        let snapshot = QueueSnapshot(rows: [
            Self.row(1, .running, done: 300, total: 1000), Self.row(2, .waiting, done: 0, total: 1000),
            Self.row(3, .running, done: 50, total: nil), Self.row(4, .completed, done: 5000, total: 5000),
        ], totalSpeed: 2 * 1024 * 1024)
        // 1 done + 0.3 of one, of 4 tasks.
        #expect(TerminalTitle.text(snapshot) == "haul 32.5% · 2 running · 1 waiting · 2.0 MiB/s")
    }

    /// 4 of 500 done, one running at half: the queue is under 1 % along, not the running task's 50 %.
    @Test func thePercentIsOfTheWholeQueueNotOfTheRunningTasks() {
        var rows = (1...4).map { Self.row($0, .completed, done: 10, total: 10) }
        rows.append(Self.row(5, .running, done: 500, total: 1000))
        rows += (6...500).map { Self.row($0, .waiting, done: 0, total: nil) }
        #expect(TerminalTitle.text(QueueSnapshot(rows: rows)) == "haul 0.9% · 1 running · 495 waiting")
    }

    @Test func anIdleQueueSaysWhatIsDone() {
        #expect(TerminalTitle.text(QueueSnapshot()) == "haul · idle")
        let finished = QueueSnapshot(rows: [Self.row(1, .completed, done: 1, total: 1), Self.row(2, .failed, done: 0, total: nil)])
        #expect(TerminalTitle.text(finished) == "haul · 1 done · 1 failed")
        #expect(TerminalTitle.text(QueueSnapshot(rows: [Self.row(1, .waiting, done: 0, total: 9)])) == "haul · 1 waiting")
    }

    @Test func aHostileNameNeverReachesTheTitle() {
        let snapshot = QueueSnapshot(rows: [Self.row(1, .running, done: 1, total: 2, name: "\u{1B}]2;pwned\u{7}.bin")])
        #expect(!TerminalTitle.text(snapshot).contains("pwned"))
    }
}
