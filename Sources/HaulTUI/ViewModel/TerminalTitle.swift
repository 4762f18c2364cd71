import HaulCore

/// The terminal's title while the list is open: the overall progress of what is left, so a minimised window or a
/// tmux status line still tells how the queue goes (`haul 42% · 3 running · 12.3 MiB/s`). Numbers only: no
/// task name (a hostile name) ever reaches the title.
public enum TerminalTitle {
    public static func text(_ snapshot: QueueSnapshot) -> String {
        let running = snapshot.count(of: .running)
        let waiting = snapshot.count(of: .waiting)
        var done: Int64 = 0
        var total: Int64 = 0
        for index in snapshot.downloadingIndices {
            let row = snapshot.rows[index]
            guard row.task.state == .running || row.task.state == .waiting, let size = row.task.totalBytes, size > 0 else { continue }
            done += min(max(0, row.bytesReceived), size)
            total += size
        }
        var parts: [String] = []
        if running > 0 {
            var head = "haul"
            if total > 0 { head += " " + PercentFormat.text(fraction: Double(done) / Double(total)) }
            parts = [head, "\(running) running"]
            if waiting > 0 { parts.append("\(waiting) waiting") }
            if let speed = snapshot.totalSpeed { parts.append(ByteCountFormat.rate(speed)) }
        } else if waiting > 0 {
            parts = ["haul", "\(waiting) waiting"]
        } else {
            let completed = snapshot.count(of: .completed)
            parts = ["haul", completed > 0 ? "\(completed) done" : "idle"]
            let failed = snapshot.count(of: .failed)
            if failed > 0 { parts.append("\(failed) failed") }
        }
        return parts.joined(separator: " · ")
    }
}
