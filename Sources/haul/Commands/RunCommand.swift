import ArgumentParser
import Foundation
import HaulCore
import HaulRemote
import HaulStore
import HaulReport
import HaulTUI
import HaulTerminal

/// `haul [URL ...]`: add the URLs, then run the queue (live list on a terminal, headless otherwise).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Add URLs (if any), then run the queue.", shouldDisplay: false)

    @OptionGroup var add: AddOptions
    @OptionGroup var state: StateOptions
    @OptionGroup var transfer: TransferFlags
    @OptionGroup var remote: RemoteOptions

    @Flag(help: "Run without the live list until nothing is waiting or running.")
    var headless = false

    @Flag(help: "Print JSON Lines events on stdout (implies --headless).")
    var json = false

    @Flag(name: .customLong("keep-running"), help: "Headless: wait for new tasks (haul add) instead of exiting when the queue is done; stop with a signal.")
    var keepRunning = false

    @Option(help: "Colour theme: a name from themes/ or a path to a .toml file.")
    var theme: String?

    @Flag(name: .customLong("no-color"), help: "Monochrome (also when NO_COLOR is set).")
    var noColor = false

    func run() async throws {
        let newTasks = try add.newTasks()
        var options = try transfer.transferOptions()
        let wantsTerminal = !headless && !json && isatty(STDOUT_FILENO) == 1 && isatty(STDIN_FILENO) == 1
        // Theme errors are usage errors, reported before the screen is taken.
        let theme = wantsTerminal ? try loadTheme() : nil
        let session = try QueueSession.open(stateDirectory: state.stateDirectory)
        let downloadDirectory = add.directory.map { absolutePath($0) } ?? FileManager.default.currentDirectoryPath
        var terminal = theme.map { TerminalOptions(theme: $0, downloadDirectory: downloadDirectory) }
        terminal?.proxyDefaults = try add.proxyDefaults()
        options.confinementRoots = [downloadDirectory] + remote.rpcAllowedDirectories.map { absolutePath($0) }
        let lock: TransferLock
        do {
            lock = try TransferLock.acquire(at: session.directory.lockPath)
        } catch {
            // Another haul owns the downloads: the live list attaches to it.
            if let terminal, let owner = session.owner {
                let status = try await Attachment.run(owner: owner, newTasks: newTasks, terminal: terminal)
                throw ExitCode(status.rawValue)
            }
            throw CommandFailure.usage(error.description)
        }
        defer { lock.release() }
        let store = session.store
        // One rule for the live list and headless runs: -j wins and is remembered; without it, the limit
        // last set (by -j or the list's < and >) holds.
        let stored = (try? store.loadMaxConcurrent()) ?? nil
        var configuration = DownloadController.Configuration(
            maxConcurrent: transfer.maxConcurrent ?? stored ?? ConcurrencyLimit.defaultValue,
            retryPolicy: RetryPolicy(maxRetries: transfer.retries),
            transferOptions: options,
            exitWhenIdle: !wantsTerminal && !keepRunning, overallLimit: try transfer.overallLimit())
        configuration.linkRenewal = remote.linkRenewal
        let composition = Composition(store: store, configuration: configuration, explicitConcurrency: transfer.maxConcurrent, headless: theme == nil)
        if !newTasks.isEmpty {
            let (_, reused) = try await composition.controller.perform(.add(newTasks)).addedTasks()
            for task in reused { note(task.reusedNote) }
        }
        let remoteControl = try await RemoteControl.start(
            composition: composition, state: session.directory, options: remote, downloadDirectory: downloadDirectory,
            proxyDefaults: try add.proxyDefaults())
        let status: ExitStatus
        if let terminal {
            switch await composition.runInteractive(options: terminal) {
            case let .status(end):
                status = end
            case .detach:
                await remoteControl?.stop()
                lock.release()
                let pid = try await BackgroundHaul.launch(
                    arguments: Self.handOverArguments(urls: add.urls), state: session.directory)
                note("the downloads go on in the background (pid \(pid)); `haul` shows them again, `haul stop` ends them")
                throw ExitCode.success
            }
        } else {
            status = await composition.runHeadless(format: json ? .json : .human, announceFallback: !headless && !json)
        }
        // The socket goes before the lock: a new owner never finds a live socket it must not replace.
        await remoteControl?.stop()
        lock.release()
        if status == .interrupted { note("interrupted: every task's bytes are saved; run haul again to continue") }
        throw ExitCode(status.rawValue)
    }

    /// The arguments a background haul takes the queue over with: this run's settings, not its tasks. They
    /// are queued already, and adding them again would resume the tasks the user paused in the list.
    static func handOverArguments(urls: [String]) -> [String] {
        DaemonCommand.settingsArguments(DaemonCommand.runArguments(), urls: urls)
    }

    /// The theme named by --theme (or NO_COLOR / --no-color); warnings go to stderr.
    private func loadTheme() throws -> Theme {
        let environment = ProcessInfo.processInfo.environment
        let monochrome = noColor || (theme == nil && !(environment["NO_COLOR"] ?? "").isEmpty)
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
