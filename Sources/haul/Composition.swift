import Dispatch
import Foundation
import HaulCore
import HaulStore
import HaulTransfer
import HaulTUI

/// Builds the engine, the controller and a front end, and runs them; nothing else.
final class Composition {
    let controller: DownloadController
    let snapshots = SnapshotBox()
    let signals = SignalTrap()

    init(store: SQLiteTaskStore, configuration: DownloadController.Configuration, explicitConcurrency: Int?) {
        var configuration = configuration
        if let explicitConcurrency {
            // A -j on the command line wins over the stored limit, and becomes the stored limit.
            try? store.saveMaxConcurrent(explicitConcurrency)
            configuration.maxConcurrent = explicitConcurrency
        }
        controller = DownloadController(
            store: store, driver: CurlTransferDriver(), snapshots: snapshots, configuration: configuration)
    }

    /// Runs the queue with log lines (or JSON Lines) until nothing is waiting or running.
    func runHeadless(format: PlainReporter.Format, announceFallback: Bool) async -> ExitStatus {
        let reporter = PlainReporter(format: format)
        let output = HeadlessOutput(format: format)
        if announceFallback { output.note("no usable terminal: running headless") }
        let controller = controller
        signals.install { [controller] in
            Task { await controller.stop() }
        }
        let events = Task {
            for await event in controller.events { output.emit(reporter.line(for: event)) }
        }
        let interval: Duration = format == .json || isatty(STDERR_FILENO) == 1 ? .seconds(1) : .seconds(10)
        let snapshots = snapshots
        let progress = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                for line in reporter.progressLines(for: snapshots.read()) { output.emit(line) }
            }
        }
        let summary = await controller.run()
        progress.cancel()
        _ = await events.value
        return ExitStatus(summary)
    }

    /// Runs the live list; nil when the terminal cannot be used (the caller runs headless instead).
    func runInteractive(theme: String?, noColor: Bool, downloadDirectory: String) async throws -> ExitStatus? {
        nil
    }
}

extension ExitStatus {
    init(_ summary: DownloadController.RunSummary) {
        if summary.interrupted {
            self = .interrupted
        } else if summary.failed > 0 || summary.pausedByError > 0 {
            self = .taskFailed
        } else {
            self = .success
        }
    }
}

/// Writes headless lines: human text on stderr, JSON Lines on stdout; one write per line.
struct HeadlessOutput: Sendable {
    let format: PlainReporter.Format

    func emit(_ line: String) {
        let handle = format == .json ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data((format == .json ? line : "haul: " + line).utf8 + [0x0A]))
    }

    func note(_ text: String) {
        FileHandle.standardError.write(Data("haul: \(text)\n".utf8))
    }
}
