import HaulCore

/// The terminal's title while the list is open: how far the whole queue is, so a minimised window or a tmux status
/// line still tells how it goes (`haul 42.0% · 3 running · 12.3 MiB/s`). The percent is of the queue's tasks: a
/// finished task counts whole, an unfinished one by its share of its known size (none when unknown), failed ones
/// not at all. Numbers only: no task name (a hostile name) ever reaches the title.
public enum TerminalTitle {
    /// - Parameter figures: the queue's figures (`QueueFigures`), when the caller keeps them; worked out here otherwise.
    public static func text(_ snapshot: QueueSnapshot, figures: QueueFigures? = nil) -> String {
        let figures = figures ?? QueueFigures(rows: snapshot.rows)
        let running = figures.running
        let waiting = figures.waiting + figures.retrying
        var parts: [String] = []
        if running > 0 {
            var head = "haul"
            if figures.counted > 0 { head += " " + PercentFormat.text(fraction: figures.progress / Double(figures.counted)) }
            parts = [head, "\(running) running"]
            if waiting > 0 { parts.append("\(waiting) waiting") }
            if let speed = snapshot.totalSpeed { parts.append(ByteCountFormat.rate(speed)) }
        } else if waiting > 0 {
            parts = ["haul", "\(waiting) waiting"]
        } else {
            let completed = figures.completed
            parts = ["haul", completed > 0 ? "\(completed) done" : "idle"]
            let failed = figures.failed
            if failed > 0 { parts.append("\(failed) failed") }
        }
        return parts.joined(separator: " · ")
    }
}
