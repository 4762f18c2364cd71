import HaulCore

/// A task as aria2 describes it (`tellStatus` and friends): numbers as decimal strings, one file entry,
/// no BitTorrent keys.
enum Aria2Status {
    /// aria2's status word for a task's state.
    static func word(for state: TaskState) -> String {
        switch state {
        case .running: "active"
        case .waiting: "waiting"
        case .paused: "paused"
        case .failed: "error"
        case .completed: "complete"
        }
    }

    /// The status object of a row; only `keys` when given (an empty list means every key, as in aria2).
    static func object(for row: QueueSnapshot.Row, keys: Set<String>? = nil) -> JSONValue {
        object(task: row.task, status: word(for: row.task.state), done: row.bytesReceived, speed: row.speed, keys: keys)
    }

    /// The status object of a task removed from the queue (aria2 keeps it as `removed` until purged).
    static func removedObject(for task: DownloadTask, keys: Set<String>? = nil) -> JSONValue {
        object(task: task, status: "removed", done: task.bytesDone, speed: nil, keys: keys)
    }

    private static func object(
        task: DownloadTask, status: String, done: Int64, speed: Double?, keys: Set<String>?
    ) -> JSONValue {
        let total = task.totalBytes ?? (task.state == .completed ? task.bytesDone : 0)
        let running = task.state == .running && status == "active"
        var fields: [String: JSONValue] = [
            "gid": .string(task.id.gid),
            "status": .string(status),
            "totalLength": .string(String(total)),
            "completedLength": .string(String(done)),
            "uploadLength": "0",
            "downloadSpeed": .string(String(running ? Int64(max(0, speed ?? 0)) : 0)),
            "uploadSpeed": "0",
            "connections": running ? "1" : "0",
            "numPieces": "1",
            "pieceLength": .string(String(max(total, 1))),
            "dir": .string(task.directory),
            "files": .array([file(of: task, total: total, done: done)]),
        ]
        if task.state == .failed {
            fields["errorCode"] = .string(errorCode(task.lastError))
            fields["errorMessage"] = .string(task.lastError ?? "download failed")
        } else if task.state == .completed || status == "removed" {
            fields["errorCode"] = "0"
            fields["errorMessage"] = ""
        }
        if let keys, !keys.isEmpty { fields = fields.filter { keys.contains($0.key) } }
        return .object(fields)
    }

    /// The one file entry (`getFiles` too): its path is the name asked for (`out`) until the name is decided,
    /// and empty when neither is known, as in aria2.
    static func file(of task: DownloadTask, total: Int64, done: Int64) -> JSONValue {
        let path = (task.fileName ?? task.requestedName).map { task.directory.hasSuffix("/") ? task.directory + $0 : task.directory + "/" + $0 } ?? ""
        return [
            "index": "1",
            "path": .string(path),
            "length": .string(String(total)),
            "completedLength": .string(String(done)),
            "selected": "true",
            "uris": .array([uri(of: task)]),
        ]
    }

    static func uri(of task: DownloadTask) -> JSONValue {
        ["uri": .string(URLValidation.redacted(task.url)), "status": task.state == .running ? "used" : "waiting"]
    }

    /// aria2's exit-status codes, from the recorded error text: 3 resource not found, 9 not enough disk
    /// space, 6 network problem, 2 time-out, 32 checksum, 1 otherwise.
    static func errorCode(_ message: String?) -> String {
        guard let message else { return "1" }
        if message.contains("HTTP 404") { return "3" }
        if message.contains("disk full") || message.contains("free at") { return "9" }
        if message.contains("no data from") { return "2" }
        if message.contains("network error") { return "6" }
        if message.contains("checksum mismatch") { return "32" }
        return "1"
    }
}
