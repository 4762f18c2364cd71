import Foundation
import HaulCore

/// The lines `haul list` prints: one per task, as plain text or as JSON. A running haul formats them for the CLI
/// (`haul.lines`), a page at a time; without one the CLI formats what it reads from the database.
public enum QueueListing {
    /// How `haul list` prints the queue.
    public struct Format: Sendable, Equatable, Codable {
        /// One JSON object per line (`--json`).
        public var json: Bool
        /// A locale that is not UTF-8: "unknown" as `-`, not `—` (text lines only).
        public var ascii: Bool
        /// Only the tasks in this state (`--state`).
        public var state: TaskState?

        public init(json: Bool = false, ascii: Bool = false, state: TaskState? = nil) {
            self.json = json
            self.ascii = ascii
            self.state = state
        }
    }

    /// The line `format` prints for `row` (a snapshot's row, with its live figures); nil when its state is not the one
    /// asked for.
    public static func line(_ row: QueueSnapshot.Row, _ format: Format) -> String? {
        guard format.state == nil || row.task.state == format.state else { return nil }
        let row = live(row)
        return format.json ? jsonLine(row.task) : line(row, ascii: format.ascii)
    }

    /// `#ID  STATE  PERCENT  DONE/TOTAL  NAME  (SPEED, ETA TIME)  (error)`: speed and time left for a running task.
    /// With `ascii` (a locale that is not UTF-8) the figures say "unknown" with `-`, not `—`.
    public static func line(_ row: QueueSnapshot.Row, ascii: Bool = false) -> String {
        let task = row.task
        let figure: (String) -> String = { ascii ? $0.replacingOccurrences(of: "—", with: "-") : $0 }
        let estimated = task.stream?.isEstimate == true && task.state != .completed ? "~" : ""
        let total: String = task.totalBytes.map { estimated + ByteCountFormat.compact($0) } ?? "?"
        let percent = figure(PercentFormat.text(done: task.bytesDone, total: task.totalBytes, isComplete: task.state == .completed))
        var error = ""
        if task.state == .failed || task.state == .paused, let text = task.lastError { error = "  (\(text))" }
        let size = ByteCountFormat.compact(task.bytesDone) + "/" + total
        let columns: [String] = ["#\(task.id)".padding(6), task.state.rawValue.padding(10), percent.padding(7), size.padding(16)]
        let segments = task.stream.map { "  " + $0.segmentFigure } ?? ""
        var pace = ""
        if task.state == .running {
            let speed = row.isStalled ? "stalled" : figure(ByteCountFormat.rate(row.speed))
            pace = "  (\(speed), ETA \(figure(DurationFormat.eta(row.eta))))"
        }
        return columns.joined() + task.displayName + segments + pace + error
    }

    /// One JSON object with the task's fields.
    public static func jsonLine(_ task: DownloadTask) -> String {
        var line = JSONLine()
        line.add("id", task.id.rawValue)
        line.add("state", task.state.rawValue)
        line.add("name", task.displayName)
        line.add("url", URLValidation.redacted(task.url))
        line.add("directory", task.directory)
        line.add("bytes", task.bytesDone)
        line.add("total", task.totalBytes)
        line.add("attempts", Int64(task.attempts))
        line.add("error", task.lastError)
        // What the settings file's [[rule]] and [[category]] decided when the task was added.
        line.add("rule", task.requestOptions.rule)
        line.add("category", task.requestOptions.category)
        // Connections and receive cap (bytes/s) stored with the task (`haul add -s`, `--limit-rate`, or a rule).
        line.add("split", task.requestOptions.split.map(Int64.init))
        line.add("limit-rate", task.requestOptions.rateLimit)
        // A task with mirrors: every link, credentials removed, with the reason it was dropped if it was.
        line.add("links", task.mirrors.isEmpty ? [] : task.links.map { link in
            var entry = JSONLine()
            entry.add("url", URLValidation.redacted(link))
            entry.add("dropped", task.dropReason(of: link))
            return entry
        })
        // What the task's first answer made it (file, stream, dash, live); null until then.
        line.add("kind", task.kind?.rawValue)
        line.add("stream", task.stream.map(JSONLine.stream))
        // A video found on a web page: the page (credentials removed), the format chosen, or why the page was kept.
        line.add("page", task.page.map { page in
            var entry = JSONLine()
            entry.add("url", URLValidation.redacted(page.url))
            entry.add("format", page.formatID)
            entry.add("note", page.note)
            return entry
        })
        line.add("group", task.group)
        return line.text
    }

    /// A snapshot's row with its task's live byte count.
    public static func live(_ row: QueueSnapshot.Row) -> QueueSnapshot.Row {
        var row = row
        row.task.bytesDone = row.bytesReceived
        return row
    }
}
