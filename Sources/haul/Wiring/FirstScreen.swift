import HaulCore
import HaulStore

/// What the live list shows of a long queue while the controller reads it whole: its first tasks as stored, with a
/// banner counting the rest (a queue of 100,000 took half a second to read and build before the first frame).
enum FirstScreen {
    /// More tasks than a screen shows, a small part of a long queue; a queue no longer than this is read whole first.
    static let tasks = 2_000

    /// The first screen of the queue in `store`; nil when the queue is no longer than `tasks` (or cannot be read now:
    /// the controller reads it and says why).
    static func snapshot(of store: SQLiteTaskStore, maxConcurrent: Int) -> QueueSnapshot? {
        guard let (first, total) = try? store.firstTasks(tasks), total > first.count else { return nil }
        var snapshot = QueueSnapshot(
            rows: first.map { QueueSnapshot.Row(task: $0, bytesReceived: $0.bytesDone) }, maxConcurrent: maxConcurrent)
        snapshot.warning = "reading the queue: \(first.count) of \(total) tasks"
        snapshot.rowsToCome = total - first.count
        return snapshot
    }
}
