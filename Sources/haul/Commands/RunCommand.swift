import ArgumentParser
import Foundation
import HaulCore
import HaulRemote
import HaulSettings
import HaulStore
import HaulReport
import HaulTUI
import HaulTerminal

/// `haul [URL ...]`: add the URLs, then run the queue (live list on a terminal, headless otherwise).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Add URLs (if any), then run the queue.",
        discussion: "Keys in the live list (a click selects, a double click opens details, the wheel scrolls, a click on a "
            + "column heading sorts; --no-mouse leaves the mouse to the terminal):\n\n" + KeyBinding.manualText,
        shouldDisplay: false)

    @OptionGroup var links: URLArguments
    @OptionGroup var options: RunOptions
    @OptionGroup var display: DisplayOptions

    @Flag(help: "Print JSON Lines events on stdout (implies --headless).")
    var json = false

    @Flag(name: .customLong("keep-running"), help: "Headless: wait for new tasks (haul add) instead of exiting when the queue is done; stop with a signal.")
    var keepRunning = false

    var add: AddOptions { options.add }

    func run() async throws {
        let settings = try options.settings(extra: display.commandLine)
        let newTasks = try add.newTasks(settings, urls: links.urls)
        let transferOptions = try settings.transferOptions()
        try settings.validateRemote()
        let wantsTerminal = !settings.bool(.headless) && !json && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1
        // Theme errors are usage errors, reported before the screen is taken.
        let theme = wantsTerminal ? try loadTheme(settings) : nil
        let session = try QueueSession.open(stateDirectory: options.state.stateDirectory)
        let downloadDirectory = settings.downloadDirectory
        var terminal = theme.map { TerminalOptions(theme: $0, downloadDirectory: downloadDirectory) }
        terminal?.proxyDefaults = try settings.proxyDefaults()
        terminal?.intakeRules = settings.intakeRules
        terminal?.mouse = !settings.bool(.noMouse)
        let lock: TransferLock
        do {
            lock = try TransferLock.acquire(at: session.directory.lockPath)
        } catch {
            // Another haul owns the downloads: the live list attaches to it.
            if let terminal, let owner = session.owner {
                let status = try await Attachment.run(
                    owner: owner, newTasks: newTasks, linkCheck: settings.linkCheckOptions, terminal: terminal,
                    again: options.state.repeated)
                throw ExitCode(status.rawValue)
            }
            throw CommandFailure.usage(error.description)
        }
        defer { lock.release() }
        let store = session.store
        // One rule for the live list and headless runs: -j (else the settings file) wins, and -j is remembered;
        // without either, the limit last set (by -j or the list's < and >) holds.
        let stored = (try? store.loadMaxConcurrent()) ?? nil
        var configuration = DownloadController.Configuration(
            maxConcurrent: settings.maxConcurrent(stored: stored), retryPolicy: settings.retryPolicy,
            transferOptions: transferOptions,
            exitWhenIdle: !wantsTerminal && !keepRunning, overallLimit: try settings.overallLimit())
        configuration.linkRenewal = settings.linkRenewal
        configuration.pageExtraction = settings.pageExtraction
        let composition = Composition(
            store: store, configuration: configuration, explicitConcurrency: options.transfer.maxConcurrent, headless: theme == nil)
        if !newTasks.isEmpty {
            let added = try await QueueEndpoint.local(composition.controller, session).add(
                newTasks, checking: settings.linkCheckOptions)
            added.reusedNotes(again: options.state.repeated).forEach(note)
        }
        let remoteControl = try await RemoteControl.start(composition: composition, state: session.directory, settings: settings)
        // A haul that stays up holds the queue for days: what it frees in large blocks goes back at once.
        if keepRunning, !wantsTerminal { FreedMemory.mapLargeBlocksApart() }
        if keepRunning, !wantsTerminal, !Self.hasControllingTerminal {
            // A daemon: SIGHUP reads the settings file again (a terminal's SIGHUP still stops a run that has one).
            let reloader = remoteControl?.reloader
            composition.signals.reloadOnHangUp { await reloader?.reloadAndReport("SIGHUP") }
        }
        let status: ExitStatus
        if let terminal {
            switch await composition.runInteractive(options: terminal) {
            case let .status(end):
                status = end
            case .detach:
                await remoteControl?.stop()
                lock.release()
                let pid = try await BackgroundHaul.launch(
                    arguments: Self.handOverArguments(urls: links.urls), state: session.directory)
                let again = options.state.repeated
                note("the downloads go on in the background (pid \(pid)); `haul\(again)` shows them again, `haul stop\(again)` ends them")
                throw ExitCode.success
            }
        } else {
            status = await composition.runHeadless(format: json ? .json : .human, announceFallback: !settings.bool(.headless) && !json)
        }
        // The socket goes before the lock: a new owner never finds a live socket it must not replace.
        await remoteControl?.stop()
        lock.release()
        if status == .interrupted {
            note("interrupted: every task's bytes are saved; run `haul\(options.state.repeated)` again to continue")
        }
        throw ExitCode(status.rawValue)
    }

    /// The arguments a background haul takes the queue over with: this run's settings, not its tasks. They
    /// are queued already, and adding them again would resume the tasks the user paused in the list.
    static func handOverArguments(urls: [String]) -> [String] {
        DaemonCommand.settingsArguments(DaemonCommand.runArguments(), urls: urls)
    }

    /// Whether this process has a controlling terminal (`/dev/tty` opens).
    static var hasControllingTerminal: Bool {
        let descriptor = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// The theme named by `theme` (or NO_COLOR / `no-color`); warnings go to stderr.
    private func loadTheme(_ settings: RunSettings) throws -> Theme {
        let environment = ProcessInfo.processInfo.environment
        let theme = settings.string(.theme)
        let monochrome = settings.bool(.noColor) || (theme == nil && !(environment["NO_COLOR"] ?? "").isEmpty)
        do {
            let (loaded, warnings) = try ThemeLoader.load(
                nameOrPath: theme, noColor: monochrome, userDirectory: ThemeLoader.userDirectory(environment: environment),
                bundledDirectory: ThemeLoader.bundledDirectory(executablePath: Bundle.main.executablePath ?? CommandLine.arguments[0]))
            for warning in warnings { note("theme: \(warning)") }
            return loaded
        } catch {
            throw CommandFailure.usage(error.description)
        }
    }
}
