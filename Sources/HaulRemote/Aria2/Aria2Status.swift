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
        object(
            task: row.task, status: word(for: row.task.state), done: row.bytesReceived, speed: row.speed,
            connections: row.connections, doneRanges: { doneRanges(of: row) }, keys: keys)
    }

    /// The status object of a task removed from the queue (aria2 keeps it as `removed` until purged).
    static func removedObject(for task: DownloadTask, keys: Set<String>? = nil) -> JSONValue {
        object(task: task, status: "removed", done: task.bytesDone, speed: nil, connections: 0, doneRanges: { [] }, keys: keys)
    }

    /// aria2's piece length for HTTP downloads (`--piece-length`, 1 MiB): the unit of `numPieces` and
    /// `bitfield`, doubled for files of more than 65,536 pieces, so a server announcing an absurd length
    /// never makes a status megabytes long.
    static func pieceLength(total: Int64) -> Int64 {
        var length: Int64 = 1 << 20
        while total / length >= 1 << 16, length < 1 << 50 { length *= 2 }
        return length
    }

    private static func object(
        task: DownloadTask, status: String, done: Int64, speed: Double?, connections: Int,
        doneRanges: () -> [Range<Int64>], keys: Set<String>?
    ) -> JSONValue {
        let total = task.totalBytes ?? (task.state == .completed ? task.bytesDone : 0)
        let running = task.state == .running && status == "active"
        let pieceLength = pieceLength(total: total)
        let pieces = total > 0 ? (total - 1) / pieceLength + 1 : 1
        var fields: [String: JSONValue] = [
            "gid": .string(task.id.gid),
            "status": .string(status),
            "totalLength": .string(String(total)),
            "completedLength": .string(String(done)),
            "uploadLength": "0",
            "downloadSpeed": .string(String(running ? max(0, (speed ?? 0).clampedInt64(.towardZero)) : 0)),
            "uploadSpeed": "0",
            "connections": .string(String(running ? max(1, connections) : 0)),
            "numPieces": .string(String(pieces)),
            "pieceLength": .string(String(pieceLength)),
            "dir": .string(task.directory),
            "files": .array([file(of: task, total: total, done: done)]),
        ]
        // As in aria2: only once the download has started (its length is known). Built only when asked
        // for: pollers of `tellWaiting` name their keys, and a bitfield can be kilobytes.
        let wantsBitfield = keys.map { $0.isEmpty || $0.contains("bitfield") } ?? true
        if task.totalBytes != nil, total > 0, wantsBitfield {
            fields["bitfield"] = .string(bitfield(doneRanges: doneRanges(), total: total, pieceLength: pieceLength))
        }
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

    /// The bytes of a row that have arrived: the live map while it runs over several connections, else the
    /// saved layout, else the prefix a single stream wrote (all of it once completed).
    static func doneRanges(of row: QueueSnapshot.Row) -> [Range<Int64>] {
        let task = row.task
        if task.state == .completed, let total = task.totalBytes { return [0..<total] }
        if task.state == .running, let map = row.segmentMap {
            return map.spans.filter { $0.cell == .done }.map(\.range)
        }
        if !task.segments.isEmpty {
            return task.segments.map { $0.start..<($0.start + $0.committed) }.filter { !$0.isEmpty }
        }
        let prefix = max(0, task.state == .running ? row.bytesReceived : task.bytesDone)
        return prefix > 0 ? [0..<prefix] : []
    }

    /// aria2's `bitfield`: one bit per piece, the highest bit of the first hex digit for piece 0, set when
    /// every byte of the piece has arrived; the bits past the last piece are zero.
    static func bitfield(doneRanges: [Range<Int64>], total: Int64, pieceLength: Int64) -> String {
        guard total > 0, pieceLength > 0 else { return "" }
        let pieces = Int((total - 1) / pieceLength + 1)
        var bytes = [UInt8](repeating: 0, count: (pieces + 7) / 8)
        var ranges: [Range<Int64>] = []
        for range in doneRanges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = ranges.last, range.lowerBound <= last.upperBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        var next = 0
        for piece in 0..<pieces {
            let start = Int64(piece) * pieceLength
            let end = start + min(pieceLength, total - start)
            while next < ranges.count, ranges[next].upperBound <= start { next += 1 }
            // Touching ranges are merged: the piece is whole when one range covers it.
            guard next < ranges.count, ranges[next].lowerBound <= start, ranges[next].upperBound >= end else { continue }
            bytes[piece / 8] |= 0x80 >> UInt8(piece % 8)
        }
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

    /// The one file entry (`getFiles` too): its path is the name asked for (`out`) until the name is decided,
    /// and empty when neither is known, as in aria2.
    static func file(of task: DownloadTask, total: Int64, done: Int64) -> JSONValue {
        let path = (task.fileName ?? task.requestedName).map { PathJoin.join(task.directory, $0) } ?? ""
        return [
            "index": "1",
            "path": .string(path),
            "length": .string(String(total)),
            "completedLength": .string(String(done)),
            "selected": "true",
            "uris": uris(of: task),
        ]
    }

    /// Every link of the task, main link first, credentials removed: `used` once the task has run (it runs,
    /// it ended, or it stopped after an attempt or with bytes on disk), `waiting` before (aria2's two values).
    /// haul keeps no record of which links served a split transfer: a task that ran counts all its links as
    /// used. A link a transfer dropped was used and is not waited for: `used`, with haul's `reason` beside it
    /// (aria2 clients read the keys they know).
    static func uris(of task: DownloadTask) -> JSONValue {
        let ran = [.running, .completed, .failed].contains(task.state) || task.attempts > 0 || task.bytesDone > 0
        return .array(task.links.map { link in
            var entry: [String: JSONValue] = ["uri": .string(URLValidation.redacted(link)), "status": ran ? "used" : "waiting"]
            if let reason = task.dropReason(of: link) {
                entry["status"] = "used"
                entry["reason"] = .string(reason)
            }
            return .object(entry)
        })
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
