import ArgumentParser
import Foundation
import HaulCore
import HaulStore

/// The task ids a shell offers after `pause`, `resume`, `remove` and `set-url`, each with its name where the shell
/// shows descriptions (zsh, fish): the tasks `haul list --json` prints, from the state directory the command line
/// names. Nothing, and nothing printed, when that directory holds no queue: completing never creates one.
enum TaskCompletion {
    /// The candidates for the words of a command line being completed.
    @Sendable static func candidates(_ words: [String], _ index: Int, _ prefix: String) async -> [String] {
        guard let directory = try? StateDirectory(explicitPath: stateDirectory(in: words)),
              FileManager.default.fileExists(atPath: directory.databasePath),
              let session = try? QueueSession.open(stateDirectory: directory.path),
              let endpoint = try? await QueueEndpoint.open(session)
        else { return [] }
        let tasks = (try? await endpoint.tasks()) ?? []
        await endpoint.close()
        return tasks.map { line(id: String($0.id.rawValue), name: $0.displayName) }.filter { $0.hasPrefix(prefix) }
    }

    /// The value of the last `--state-dir` among `words`, if any.
    static func stateDirectory(in words: [String]) -> String? {
        var found: String?
        for (position, word) in words.enumerated() {
            if word == "--state-dir", position + 1 < words.count { found = words[position + 1] }
            if word.hasPrefix("--state-dir=") { found = String(word.dropFirst("--state-dir=".count)) }
        }
        return found
    }

    /// One candidate as the requesting shell reads it: `ID<TAB>NAME` for fish, `ID:NAME` for zsh's `_describe`.
    static func line(id: String, name: String, shell: CompletionShell? = CompletionShell.requesting) -> String {
        let name = String(name.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        switch shell {
        case .fish?: return id + "\t" + name
        case .zsh?: return id + ":" + name.replacingOccurrences(of: ":", with: "\\:")
        default: return id
        }
    }
}
