import ArgumentParser
import Foundation
import HaulCore

/// `haul`: a terminal download queue. With URLs (or none), runs the queue; subcommands edit it.
@main
struct Haul: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haul",
        abstract: "A resumable download queue for the terminal.",
        discussion: """
            haul URL... adds the URLs, then runs the queue: the live list on a
            terminal, headless otherwise. Downloads resume from the exact byte
            where they stopped, also after a crash or a reboot.

            Run options (all in `haul run --help`):
              -d DIR  -o NAME  -i FILE  -j N  --headless  --json  --keep-running
              --limit-rate RATE  --retries N  --timeout S  --disk-reserve SIZE
              -H "K: V"  --checksum sha-256=HEX  --ca-cert FILE  --state-dir DIR
              --theme NAME|PATH  --no-color  -s N  --mirror URL  -c  --allow-overwrite
              --all-proxy URL  --no-proxy LIST  --load-cookies FILE  --netrc-file FILE
              --notify  --rpc-listen [HOST:]PORT  --on-link-expired CMD  --config FILE

            Settings: any long option of a run is also a key of the settings file
            $XDG_CONFIG_HOME/haul/config.toml (see `haul config`); the command line
            wins over the file, the file over the defaults.

            The queue lives in $XDG_STATE_HOME/haul (default ~/.local/state/haul).
            Exit status: 0 all completed, 1 some task failed, 2 usage error,
            3 the command could not be carried out (e.g. the running haul did
            not answer), 130 interrupted (state saved).
            """,
        version: Product.version,
        subcommands: [RunCommand.self, AddCommand.self, ListCommand.self, PauseCommand.self, ResumeCommand.self,
                      RemoveCommand.self, SetURLCommand.self, DaemonCommand.self, StopCommand.self, LimitCommand.self,
                      ScheduleCommand.self, ConfigCommand.self],
        defaultSubcommand: RunCommand.self)
}

extension Haul {
    /// Parses and runs; `FailureReport` turns any error into its message and exit status (DESIGN §2).
    static func main() async {
        // A closed stdout (`haul list | head -1`) must end a write with EPIPE, not kill the process; and a
        // parent that started us with signals blocked must not make SIGINT/SIGTERM/SIGHUP go unnoticed.
        signal(SIGPIPE, SIG_IGN)
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        // Decided on the stderr haul was started with, before the live list holds stderr in a file of its own.
        UserMessages.decideStamping()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The shells' scripts and their callbacks see `run`'s options at the root too (CompletionRoot).
        if CompletionRoot.handles(arguments) { await CompletionRoot.answer(arguments) }
        if let command = CommandSuggestion.similarCommand(to: arguments) {
            FailureReport(CommandFailure.usage(
                "'\(arguments[0])' is not a haul command; the most similar is '\(command)' (see `haul --help`)")).exit()
        }
        do {
            var command = try parseAsRoot(subcommandFirst(arguments))
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let suggestion = CommandSuggestion.misplacedRunOption(in: arguments) ?? CommandSuggestion.negativeNumber(in: arguments)
            FailureReport(suggestion.map { CommandFailure.usage($0) } ?? error, help: CommandSuggestion.help(for: subcommandFirst(arguments))).exit()
        }
        ProcessExit.now(ExitStatus.success.rawValue)
    }
}

extension Haul {
    /// `arguments` with a subcommand that follows root options moved to the front:
    /// `haul --state-dir S list` runs as `haul list --state-dir S`.
    ///
    /// The name is moved only when everything before it parses as options of the default `run` command and
    /// the name itself would be taken as a URL there; a subcommand name is never a valid URL, so nothing a
    /// user meant as a URL or as an option's value moves.
    static func subcommandFirst(_ arguments: [String]) -> [String] {
        let names = Set(configuration.subcommands.map { $0._commandName })
        guard let index = arguments.indices.dropFirst().first(where: { names.contains(arguments[$0]) }),
              !arguments[..<index].contains("--"),
              let run = try? RunCommand.parse(Array(arguments[...index])),
              run.links.urls == [arguments[index]]
        else { return arguments }
        return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
    }
}
