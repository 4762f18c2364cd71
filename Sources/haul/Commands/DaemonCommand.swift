import ArgumentParser
import Foundation
import HaulCore
import HaulRemote
import HaulStore

/// `haul daemon [URL...] [options]`: start a background haul and return; the live list attaches to it.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon", abstract: "Start a background haul (no terminal) and return; `haul` attaches to it.")

    @OptionGroup var links: URLArguments
    @OptionGroup var options: RunOptions

    func run() async throws {
        // Everything is checked here, before the background haul is started with the same arguments.
        let settings = try options.settings()
        let newTasks = try options.add.newTasks(settings, urls: links.urls)
        _ = try settings.transferOptions()
        try settings.validateRemote()
        let session = try QueueSession.open(stateDirectory: options.state.stateDirectory)
        if let owner = session.owner, let pid = try? await owner.processID() {
            if !newTasks.isEmpty { Attachment.reportAdded(try await QueueEndpoint.owner(owner, pid: pid).add(newTasks, checking: settings.linkCheckOptions), again: options.state.repeated) }
            note("a haul is already running (pid \(pid)); socket \(session.directory.socketPath)")
            return
        }
        // The tasks go into the queue here, not on the background haul's command line (`ps` shows that to every
        // user, credentials in URLs and headers included).
        if !newTasks.isEmpty {
            Attachment.reportAdded(try await QueueEndpoint.open(session).addClosing(newTasks, checking: settings.linkCheckOptions), again: options.state.repeated)
        }
        let pid = try await BackgroundHaul.launch(
            arguments: Self.settingsArguments(Self.runArguments(), urls: links.urls), state: session.directory)
        note("background haul running (pid \(pid))\n  socket \(session.directory.socketPath)\n  log    \(session.directory.logPath)")
    }

    /// This command's arguments for the background run: without the subcommand name and the flags the
    /// background run sets itself.
    static func runArguments(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> [String] {
        var rest = arguments
        if let index = rest.firstIndex(of: configuration.commandName ?? "daemon") { rest.remove(at: index) }
        return rest.filter { !["--headless", "--keep-running", "--json"].contains($0) }
    }

    /// Options that describe tasks rather than the run: a background haul finds those tasks in the queue.
    static let taskOptions: Set<String> = [
        "-i", "--input-file", "-H", "--header", "-o", "--output", "--checksum", "--user-agent", "--referer",
        "--all-proxy", "--no-proxy", "--load-cookies", "--netrc-file", "--mirror",
    ]
    /// Task flags without a value.
    static let taskFlags: Set<String> = ["-c", "--continue", "--allow-overwrite"]

    /// `arguments` without the tasks they name (the URLs, `taskFlags`, and `taskOptions` with their values, in
    /// either `--name value` or `--name=value` form): the settings a background haul runs with.
    static func settingsArguments(_ arguments: [String], urls: [String]) -> [String] {
        var settings: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if taskOptions.contains(argument) {
                index += 2
                continue
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if !(argument.hasPrefix("--") && argument.contains("=") && taskOptions.contains(name)), !urls.contains(argument),
               !taskFlags.contains(argument) {
                settings.append(argument)
            }
            index += 1
        }
        return settings
    }
}
