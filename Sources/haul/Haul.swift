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
            Downloads resume from the exact byte where they stopped, also after a crash or reboot.
            The queue lives in $XDG_STATE_HOME/haul (default ~/.local/state/haul).
            Exit status: 0 every task run completed · 1 some task failed · 2 usage error · 130 interrupted.
            """,
        subcommands: [RunCommand.self, AddCommand.self, ListCommand.self, PauseCommand.self, ResumeCommand.self,
                      RemoveCommand.self, DemoCommand.self],
        defaultSubcommand: RunCommand.self)
}

extension Haul {
    /// Parses, runs, and maps every error to DESIGN §2's exit statuses (usage and configuration errors → 2).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let failure as UsageFailure {
            FileHandle.standardError.write(Data("haul: \(failure.message)\n".utf8))
            Foundation.exit(ExitStatus.usage.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            FileHandle.standardError.write(Data("haul: \(fullMessage(for: error))\n".utf8))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
    }
}
