import Foundation
import HaulCore

/// aria2's WebSocket notifications: `{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":…}]}`.
enum Aria2Notification {
    static let names = [
        "aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop", "aria2.onDownloadComplete",
        "aria2.onDownloadError",
    ]

    /// The notifications for a controller event, encoded: one per task (a command that changed many tasks tells
    /// each of them, as aria2 does); none for events aria2 has none for.
    static func messages(for event: ControllerEvent) -> [[UInt8]] {
        switch event {
        case let .started(task): [message("aria2.onDownloadStart", task.id)]
        case let .paused(task): [message("aria2.onDownloadPause", task.id)]
        case let .removed(task): [message("aria2.onDownloadStop", task.id)]
        case let .completed(task): [message("aria2.onDownloadComplete", task.id)]
        // A task paused by an error the user must fix (disk space) is paused, not failed.
        case let .failed(task, _): [message(task.state == .failed ? "aria2.onDownloadError" : "aria2.onDownloadPause", task.id)]
        case let .many(change):
            change.ids.map { message(change.edit == .paused ? "aria2.onDownloadPause" : "aria2.onDownloadStop", $0) }
        case .added, .restarted, .stream, .retrying, .linkDropped, .warning, .schedule: []
        }
    }

    private static func message(_ method: String, _ id: TaskID) -> [UInt8] {
        RPCDispatcher.encode(["jsonrpc": "2.0", "method": .string(method), "params": [["gid": .string(id.gid)]]])
    }
}
