import Foundation
import HaulCore
import HaulReport

/// The tasks that print a headless run: controller events as they happen, and a progress summary periodically.
struct Reporting {
    let events: Task<Void, Never>
    let progress: Task<Void, Never>

    /// Starts printing `events` and, every second on a terminal (or for JSON) and every 10 s otherwise, the queue
    /// as `snapshots` hold it.
    static func start(format: PlainReporter.Format, events: AsyncStream<ControllerEvent>, snapshots: SnapshotBox) -> Reporting {
        let reporter = PlainReporter(format: format)
        let output = HeadlessOutput(format: format)
        let printing = Task {
            for await event in events { output.emit(reporter.line(for: event)) }
        }
        let interval: Duration = format == .json || isatty(STDERR_FILENO) == 1 ? .seconds(1) : .seconds(10)
        let progress = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                for line in reporter.progressLines(for: snapshots.read()) { output.emit(line) }
            }
        }
        return Reporting(events: printing, progress: progress)
    }

    /// Stops the periodic summary and waits until every event line is out (the event stream ends with the run).
    func finish() async {
        progress.cancel()
        await events.value
    }
}
