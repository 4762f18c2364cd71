import Foundation
import HaulCore

/// Turns controller events and snapshots into the lines of a headless run: human text for stderr,
/// or JSON Lines for stdout (`--json`). Pure: the caller prints.
public struct PlainReporter: Sendable {
    public enum Format: Sendable { case human, json }

    public let format: Format
    /// The zone of the `time` field of JSON lines (ISO 8601 with its offset).
    public let timeZone: TimeZone

    public init(format: Format, timeZone: TimeZone = .current) {
        self.format = format
        self.timeZone = timeZone
    }

    /// One line per state change; a JSON line says `time`, when it happened.
    public func line(for event: ControllerEvent, at time: Date = Date()) -> String {
        switch format {
        case .human: return humanLine(for: event)
        case .json: return jsonLine(for: event, at: time)
        }
    }

    /// The periodic progress report: one summary line (human) or one line per running task (JSON, with `time`).
    public func progressLines(for snapshot: QueueSnapshot, at time: Date = Date()) -> [String] {
        let running = snapshot.rows.filter { $0.task.state == .running }
        switch format {
        case .json:
            return running.map { row in
                var json = JSONLine()
                json.add("event", "progress")
                json.add("time", TimestampFormat.text(time, in: timeZone))
                json.add("id", row.task.id.rawValue)
                json.add("name", row.task.displayName)
                json.add("bytes", row.bytesReceived)
                json.add("total", row.task.totalBytes)
                json.add("speed", row.speed)
                json.add("eta", row.eta)
                return json.text
            }
        case .human:
            guard !running.isEmpty else { return [] }
            let counts = "\(running.count) running · \(snapshot.count(of: .waiting)) waiting · "
                + "\(snapshot.count(of: .completed)) done · \(snapshot.count(of: .failed)) failed"
            let rows = running.map { row -> String in
                let total = row.task.totalBytes
                let percent = total.map { $0 > 0 ? " " + PercentFormat.text(done: row.bytesReceived, total: $0, isComplete: false) : "" } ?? ""
                let estimated = row.task.stream?.isEstimate == true ? "~" : ""
                let size = ByteCountFormat.compact(row.bytesReceived) + "/" + (total.map { estimated + ByteCountFormat.compact($0) } ?? "?")
                    + (row.task.stream.map { " " + $0.segmentFigure } ?? "")
                let speed = row.isStalled ? "stalled" : ByteCountFormat.rate(row.speed)
                return "#\(row.task.id)\(percent) \(size) \(speed) eta \(DurationFormat.eta(row.eta))"
            }
            return ["progress: \(counts)  ↓ \(ByteCountFormat.rate(snapshot.totalSpeed))  " + rows.joined(separator: "  ")]
        }
    }

    private func humanLine(for event: ControllerEvent) -> String {
        switch event {
        case let .added(task):
            return "#\(task.id) added      \(task.displayName)  \(URLValidation.redacted(task.url))"
        case let .started(task):
            let from = task.bytesDone > 0 ? " (resuming at \(ByteCountFormat.size(task.bytesDone)))" : ""
            return "#\(task.id) started    \(task.displayName)\(from)"
        case let .stream(task):
            return "#\(task.id) stream     \(task.displayName)  " + (task.stream.map(StreamSummary.text) ?? "")
        case let .restarted(task, reason):
            return "#\(task.id) restarted  \(task.displayName) from byte 0: \(reason)"
        case let .paused(task):
            return "#\(task.id) paused     \(task.displayName) at \(ByteCountFormat.size(task.bytesDone))"
        case let .linkDropped(task, dropped):
            return "#\(task.id) link dropped \(task.displayName)  \(dropped.url): \(dropped.reason)"
        case let .retrying(task, after, error):
            return "#\(task.id) retrying   \(task.displayName) in \(DurationFormat.eta(after)) (attempt \(task.attempts)): \(error)"
        case let .completed(task):
            return "#\(task.id) completed  \(task.displayName)  \(ByteCountFormat.size(task.bytesDone)) → \(task.directory)"
        case let .failed(task, error):
            let verb = task.state == .paused ? "paused    " : "failed    "
            return "#\(task.id) \(verb) \(task.displayName): \(error)"
        case let .removed(task):
            return "#\(task.id) removed    \(task.displayName)"
        case let .many(change):
            return "\(change.count) task(s) \(change.edit.rawValue)"
        case let .warning(message):
            return "warning: \(message)"
        case let .schedule(note):
            return note ?? "schedule: the queue runs as usual"
        }
    }

    private func jsonLine(for event: ControllerEvent, at time: Date) -> String {
        var json = JSONLine()
        let stamp = TimestampFormat.text(time, in: timeZone)
        if case let .warning(message) = event {
            json.add("event", "warning")
            json.add("time", stamp)
            json.add("message", message)
            return json.text
        }
        // Many tasks changed by one command: the event's name with their count, no task of its own.
        if case let .many(change) = event {
            json.add("event", change.edit.rawValue)
            json.add("time", stamp)
            json.add("count", Int64(change.count))
            return json.text
        }
        if case let .schedule(note) = event {
            json.add("event", "schedule")
            json.add("time", stamp)
            json.add("message", note)
            return json.text
        }
        let (name, task): (String, DownloadTask) = switch event {
        case let .added(task): ("added", task)
        case let .started(task): ("started", task)
        case let .restarted(task, _): ("restarted", task)
        case let .stream(task): ("stream", task)
        case let .paused(task): ("paused", task)
        case let .linkDropped(task, _): ("link-dropped", task)
        case let .retrying(task, _, _): ("retrying", task)
        case let .completed(task): ("completed", task)
        case let .failed(task, _): (task.state == .paused ? "paused" : "failed", task)
        case let .removed(task): ("removed", task)
        case .warning, .schedule, .many: preconditionFailure("handled above")
        }
        json.add("event", name)
        json.add("time", stamp)
        json.add("id", task.id.rawValue)
        json.add("name", task.displayName)
        json.add("url", URLValidation.redacted(task.url))
        json.add("bytes", task.bytesDone)
        json.add("total", task.totalBytes)
        switch event {
        case let .completed(task):
            json.add("path", task.fileName.map { PathJoin.join(task.directory, $0) })
        case let .retrying(_, after, error):
            json.add("after", after)
            json.add("error", error.description)
        case let .failed(_, error):
            json.add("error", error.description)
        case let .restarted(_, reason):
            json.add("reason", reason)
        case let .stream(task):
            json.add("fileName", task.fileName)
            json.add("stream", task.stream.map(JSONLine.stream))
        case let .linkDropped(_, dropped):
            json.add("link", dropped.url)
            json.add("reason", dropped.reason)
        default:
            break
        }
        return json.text
    }
}
