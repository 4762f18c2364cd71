import ArgumentParser
import Foundation

/// The command tree the shells complete: haul's own, with the options of the default `run` command at the root as
/// well, since `haul --limit-rate 1M URL` runs them (the argument parser leaves a default subcommand's options out
/// of the root's completions). It only writes the scripts (`--generate-completion-script`) and answers their
/// callbacks (`---completion`); `Haul` parses every other command line. A value type run once per process.
struct CompletionRoot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Haul.configuration.commandName,
        subcommands: Haul.configuration.subcommands.map { ObjectIdentifier($0) == ObjectIdentifier(RunCommand.self) ? ShownRun.self : $0 })

    @OptionGroup var run: RunCommand

    /// Whether `arguments` (without the program name) ask for a script or for a script's completions.
    static func handles(_ arguments: [String]) -> Bool {
        arguments.first == "---completion" || requestedShell(arguments) != nil
            || arguments.contains("--generate-completion-script")
    }

    /// Prints the script or the completions `arguments` ask for, then exits.
    static func answer(_ arguments: [String]) async -> Never {
        if let shell = requestedShell(arguments) {
            print(script(for: shell), terminator: "")
            ProcessExit.now(0)
        }
        await main(arguments)
        ProcessExit.now(0)
    }

    /// The argument parser's script for `shell`, with its limits worked around:
    /// - The root takes the URLs and has subcommands: each generator would take every word for a URL and never reach
    ///   a subcommand (zsh's `_arguments` even refuses the two rest arguments). The root's URLs are left out of its
    ///   completion (nothing completes a URL), so `haul pause ⇥` reaches `pause`; a first word that is no command
    ///   (a link) hands the words after it to `run`'s completion, so `haul URL --lim⇥` completes.
    /// - fish before 4 (Debian's 3.6): `commandline -tC` sets the cursor instead of reading it, which fails under
    ///   `complete -C`; the cursor's place in the word is the length of the word up to it.
    static func script(for shell: CompletionShell) -> String {
        let script = completionScript(for: shell)
        switch shell {
        case .zsh:
            return script.replacingFirst("\n        '*:urls:'\n", with: "\n")
                .replacingFirst("""
                            "_haul_${words[1]}" && ret=0
                            ;;
                        esac
                """, with: """
                            "_haul_${words[1]}" && ret=0
                            ;;
                        *)
                            _haul_run && ret=0
                            ;;
                        esac
                """)
        case .fish:
            return script.replacingFirst("__haul_parse_subcommand -r 1 ", with: "__haul_parse_subcommand 0 ")
                .replacingOccurrences(of: "(__haul_tokens -tC)", with: "(string length -- \"$(commandline -ct)\")")
        default:
            return script.replacingFirst("    __haul_offer_flags_options -1\n", with: "    __haul_offer_flags_options 0\n")
                .replacingFirst("    *)\n        # Offer subcommand completions\n", with: """
                    *)
                        if [[ -n "${subcommand}" && ${#unparsed_words[@]} -gt 0 ]]; then _haul_run; return; fi
                        # Offer subcommand completions

                """)
        }
    }

    /// The shell named by `--generate-completion-script SHELL` or `--generate-completion-script=SHELL`.
    private static func requestedShell(_ arguments: [String]) -> CompletionShell? {
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--generate-completion-script=") {
                return CompletionShell(rawValue: String(argument.dropFirst("--generate-completion-script=".count)))
            }
            if argument == "--generate-completion-script", index + 1 < arguments.count {
                return CompletionShell(rawValue: arguments[index + 1])
            }
        }
        return nil
    }
}

/// `haul run`, listed among the commands the shells complete (`haul --help` leaves it out: it is the default).
struct ShownRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: RunCommand.configuration.abstract)

    @OptionGroup var run: RunCommand
}

extension String {
    /// The text with the first `target` replaced (unchanged without one).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let found = range(of: target) else { return self }
        return replacingCharacters(in: found, with: replacement)
    }
}
