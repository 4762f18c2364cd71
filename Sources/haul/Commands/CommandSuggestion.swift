import ArgumentParser

/// What haul says of a first word that is neither a command nor a link, and which help to point to after a usage
/// error: `haul lsit` is a typo for `list` (git's "most similar command"), and an error in `haul schedule …`
/// points to `haul schedule --help`, which documents the windows. Pure; values only.
enum CommandSuggestion {
    /// The command names `haul` takes (`run` included).
    static var names: [String] { Haul.configuration.subcommands.map { $0._commandName } }

    /// The command most like `arguments`' first word, when that word is no command, no option and no link.
    static func similarCommand(to arguments: [String]) -> String? {
        guard let word = arguments.first, word.count >= 2, !word.hasPrefix("-"), !names.contains(word),
              !word.contains(":"), !word.contains("."), !word.contains("/")
        else { return nil }
        if let command = synonyms[word.lowercased()], names.contains(command) { return command }
        let ranked = names.map { (name: $0, distance: distance(word.lowercased(), $0)) }.min { $0.distance < $1.distance }
        guard let best = ranked, best.distance <= max(1, min(2, best.name.count / 3)) else { return nil }
        return best.name
    }

    /// Words other tools use for a command (the shell's, aria2's, aria2p's), which no edit distance finds:
    /// `haul rm 1` was refused as a link.
    static let synonyms: [String: String] = [
        "rm": "remove", "del": "remove", "delete": "remove", "ls": "list", "show": "list", "status": "list",
        "unpause": "resume", "continue": "resume", "kill": "stop", "shutdown": "stop",
    ]

    /// The help that documents what `arguments` ran: the command's own, and `haul run --help` for a run.
    static func help(for arguments: [String]) -> String {
        let command = arguments.first { !$0.hasPrefix("-") }.flatMap { names.contains($0) ? $0 : nil } ?? "run"
        return "haul \(command) --help"
    }

    /// What to say when a run's option came before another command's name and that command does not take it:
    /// `haul -d DIR resume 1` is `haul resume -d DIR 1`, and resume has no `-d` (the directory is a download's).
    static func misplacedRunOption(in arguments: [String]) -> String? {
        let moved = Haul.subcommandFirst(arguments)
        guard moved != arguments, let command = moved.first, let index = arguments.firstIndex(of: command) else {
            return nil
        }
        for token in arguments[..<index] where token.hasPrefix("-") && token.count > 1 {
            let option = String(token.prefix { $0 != "=" })
            do {
                _ = try Haul.parseAsRoot([command, option, "1"])
            } catch where Haul.message(for: error).hasPrefix("Unknown option") {
                return "'\(option)' is an option of a download (`haul \(option) … URL`), not of `haul \(command)`"
            } catch {}
        }
        return nil
    }

    /// What to say when a command's arguments did not parse because one is a negative number (`haul pause -1`,
    /// `haul limit 1 -5`): the parser takes it for an option ("Unknown option '-7'") or for nothing at all.
    /// Not for the commands with transfer options, whose values say themselves what is wrong with `-1M`.
    static func negativeNumber(in arguments: [String]) -> String? {
        let moved = Haul.subcommandFirst(arguments)
        guard let command = moved.first, names.contains(command), !["run", "add", "daemon", "config"].contains(command)
        else { return nil }
        let negative = moved.dropFirst().first { token in
            token.count > 1 && token.hasPrefix("-") && token.dropFirst().first?.isASCII == true
                && token.dropFirst().first?.isNumber == true
        }
        return negative.map { "'\($0)' is negative: task ids count from 1 (see `haul list`), rates and sizes from 0" }
    }

    /// Optimal string alignment distance (a swap of two neighbours counts as one edit).
    static func distance(_ first: String, _ second: String) -> Int {
        let a = Array(first), b = Array(second)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
