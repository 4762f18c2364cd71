import HaulCore

/// The terminal's title while the list is open: how far the whole queue is, so a minimised window or a tmux status
/// line still tells how it goes (`haul 42.0% · 3 running · 12.3 MiB/s`). The percent is of the queue's tasks: a
/// finished task counts whole, an unfinished one by its share of its known size (none when unknown), failed ones
/// not at all. Numbers only: no task name (a hostile name) ever reaches the title.
public enum TerminalTitle {
    public static func text(_ snapshot: QueueSnapshot) -> String {
        let running = snapshot.count(of: .running)
        let waiting = snapshot.count(of: .waiting)
        var done = 0.0
        var total = 0
        for row in snapshot.rows where row.task.state != .failed {
            total += 1
            if row.task.state == .completed {
                done += 1
            } else if let size = row.task.totalBytes, size > 0 {
                done += Double(min(max(0, row.bytesReceived), size)) / Double(size)
            }
        }
        var parts: [String] = []
        if running > 0 {
            var head = "haul"
            if total > 0 { head += " " + PercentFormat.text(fraction: done / Double(total)) }
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
