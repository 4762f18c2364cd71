import Foundation
import HaulCore

/// aria2's WebSocket notifications: `{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":…}]}`.
enum Aria2Notification {
    static let names = [
        "aria2.onDownloadStart", "aria2.onDownloadPause", "aria2.onDownloadStop", "aria2.onDownloadComplete",
        "aria2.onDownloadError",
    ]

    /// The notification for a controller event, encoded; nil for events aria2 has none for.
    static func message(for event: ControllerEvent) -> [UInt8]? {
        let method: String
        let task: DownloadTask
        switch event {
        case let .started(started): (method, task) = ("aria2.onDownloadStart", started)
        case let .paused(paused): (method, task) = ("aria2.onDownloadPause", paused)
        case let .removed(removed): (method, task) = ("aria2.onDownloadStop", removed)
        case let .completed(completed): (method, task) = ("aria2.onDownloadComplete", completed)
        // A task paused by an error the user must fix (disk space) is paused, not failed.
        case let .failed(failed, _): (method, task) = (failed.state == .failed ? "aria2.onDownloadError" : "aria2.onDownloadPause", failed)
        // aria2 tells each task; many tasks changed at once are told by none (a client reads them with tellWaiting).
        case .added, .restarted, .stream, .retrying, .linkDropped, .warning, .schedule, .many: return nil
        }
        return RPCDispatcher.encode([
            "jsonrpc": "2.0", "method": .string(method), "params": [["gid": .string(task.id.gid)]],
        ])
    }
}
