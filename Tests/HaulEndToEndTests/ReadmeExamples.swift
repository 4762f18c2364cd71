import Foundation

/// The `haul` commands the README shows, read from it as a reader would copy them: each line of a ```sh block that
/// starts with `haul` (split at `;`, the comment after `#` dropped), and each inline `haul …` span that is a whole
/// command (no `[options]`, `…` or `|` placeholders). Split into words as a shell splits them, quotes kept
/// together; `~/` is left for the runner to make its home.
struct ReadmeExamples {
    /// A block of commands run one after the other, on one queue (an inline span is a block of its own).
    struct Session: Sendable {
        var line: Int
        var commands: [[String]]
    }

    /// The README's ```toml blocks, each as written.
    var settingsFiles: [String] = []
    var sessions: [Session] = []

    init(markdown: String) {
        var block: [String]?
        var language = ""
        var start = 0
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let lines = block {
                    if language == "sh" {
                        let commands = lines.flatMap { Self.commands(in: $0) }
                        if !commands.isEmpty { sessions.append(Session(line: start, commands: commands)) }
                    } else if language == "toml" {
                        settingsFiles.append(lines.joined(separator: "\n") + "\n")
                    }
                    block = nil
                } else {
                    block = []
                    language = String(line.dropFirst(3))
                    start = index + 1
                }
                continue
            }
            if block != nil {
                block?.append(line)
                continue
            }
            for span in Self.inlineCommands(in: line) {
                sessions.append(Session(line: index + 1, commands: Self.commands(in: span)))
            }
        }
    }

    /// The inline spans of `line` that are whole `haul` commands; a command's name alone (`haul add`) is a name.
    static func inlineCommands(in line: String) -> [String] {
        let pieces = line.components(separatedBy: "`")
        return stride(from: 1, to: pieces.count, by: 2).map { pieces[$0] }.filter { span in
            span.hasPrefix("haul ") && !span.contains { "[]|…·%".contains($0) } && span.split(separator: " ").count > 2
        }
    }

    /// The `haul` commands of one shell line, each as its words.
    static func commands(in line: String) -> [[String]] {
        words(of: line).filter { $0.first == "haul" }
    }

    /// Shell words of `line`, one array per `;`-separated command, up to an unquoted `#` that begins a word.
    static func words(of line: String) -> [[String]] {
        var commands: [[String]] = [[]]
        var word: String?
        var quote: Character?
        func endWord() {
            if let done = word { commands[commands.count - 1].append(done) }
            word = nil
        }
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word!.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                word = word ?? ""
            case " ", "\t":
                endWord()
            case ";":
                endWord()
                commands.append([])
            case "#" where word == nil:
                return commands.filter { !$0.isEmpty }
            default:
                word = (word ?? "") + String(character)
            }
        }
        endWord()
        return commands.filter { !$0.isEmpty }
    }
}
