import Foundation
import HaulCore
import HaulStore
import HaulReport
import HaulTransfer
import HaulTUI
import HaulTerminal

/// Builds the engine, the controller and a front end, and runs them; nothing else.
final class Composition {
    let controller: DownloadController
    /// What the run was started with (remote clients read its settings).
    let configuration: DownloadController.Configuration
    let snapshots = SnapshotBox()
    let signals = SignalTrap()
    private let store: SQLiteTaskStore

    /// The controller's events for a headless run, subscribed before anything happens so none is missed.
    private let headlessEvents: AsyncStream<ControllerEvent>?

    init(store: SQLiteTaskStore, configuration: DownloadController.Configuration, explicitConcurrency: Int?, headless: Bool) {
        // A -j on the command line (already in `configuration`) wins over the stored limit, and becomes it.
        if let explicitConcurrency { try? store.saveMaxConcurrent(explicitConcurrency) }
        self.configuration = configuration
        self.store = store
        controller = DownloadController(
            store: store, driver: CurlTransferDriver(), snapshots: snapshots, configuration: configuration)
        headlessEvents = headless ? controller.events() : nil
    }

    /// Runs the queue with log lines (or JSON Lines) until nothing is waiting or running.
    func runHeadless(format: PlainReporter.Format, announceFallback: Bool) async -> ExitStatus {
        if announceFallback { note("no usable terminal: running headless") }
        installStopSignals()
        let reporting = startReporting(format)
        let summary = await controller.run()
        await reporting.finish()
        return ExitStatus(summary)
    }

    /// How an interactive run ended: with an exit status, or handing the downloads to a background haul.
    enum InteractiveEnd: Equatable {
        case status(ExitStatus)
        case detach
    }

    /// Runs the live list on its own thread while the controller runs; falls back to headless when the
    /// terminal cannot be used.
    func runInteractive(options: TerminalOptions) async -> InteractiveEnd {
        installStopSignals()
        let controller = controller
        let (commands, sink) = AsyncStream.makeStream(of: QueueCommand.self)
        // One consumer keeps the user's commands in order.
        let forwarding = Task {
            for await command in commands { await controller.perform(command) }
        }
        // A long queue's first screen is drawn while the controller reads it whole; a short one is read first.
        let run: Task<DownloadController.RunSummary, Never>
        if let first = FirstScreen.snapshot(of: store, maxConcurrent: configuration.maxConcurrent) {
            snapshots.publish(first)
            run = Task {
                await controller.publishInitialSnapshot()
                return await controller.run()
            }
        } else {
            await controller.publishInitialSnapshot()
            run = Task { await controller.run() }
        }
        let end = await InteractiveSession.runOnKeyThread(
            snapshots: snapshots, send: { sink.yield($0) }, options: options, stopRequested: signals.requested)
        sink.finish()
        await forwarding.value
        switch end {
        case let .success(sessionEnd):
            // State is saved as it goes; running tasks go back to waiting and resume on the next start
            // (or in the background haul at once, after `d`: stopping syncs every byte, so nothing is fetched twice).
            await controller.stop()
            let summary = await run.value
            switch sessionEnd {
            case .detach: return .detach
            case .stopRequested: return .status(ExitStatus(summary, interrupted: true))
            // As headless: a task that ended failed in this session makes the status 1, also after `q`.
            case .quit: return .status(ExitStatus(summary, interrupted: false))
            }
        case let .failure(error):
            note("\(error)")
            let reporting = startReporting(.human)
            await controller.finishWhenIdle()
            let summary = await run.value
            await reporting.finish()
            return .status(ExitStatus(summary))
        }
    }

    private func installStopSignals() {
        let controller = controller
        signals.install {
            Task { await controller.stop() }
        }
    }

    /// Prints the run as log lines (or JSON Lines), from the events subscribed at the start when headless.
    private func startReporting(_ format: PlainReporter.Format) -> Reporting {
        Reporting.start(format: format, events: headlessEvents ?? controller.events(), snapshots: snapshots)
    }
}
