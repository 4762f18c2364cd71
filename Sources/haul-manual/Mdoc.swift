import Foundation

/// Builds mdoc text (mdoc(7)) line by line: macros, and prose escaped and broken one sentence a line, no line
/// over 80 bytes, as `mandoc -T lint` wants. A value owned by whoever writes the page.
struct Mdoc {
    private(set) var lines: [String] = []

    /// A macro line (`Sh`, `It Fl d`), its arguments written as given.
    mutating func macro(_ name: String, _ arguments: String = "") {
        lines.append("." + name + (arguments.isEmpty ? "" : " " + arguments))
    }

    /// Prose: escaped, each sentence on its own lines, wrapped.
    mutating func text(_ prose: String) {
        for paragraph in prose.components(separatedBy: "\n\n") {
            let words = paragraph.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard !words.isEmpty else { continue }
            if lines.last.map({ !$0.hasPrefix(".") }) == true { macro("Pp") }
            var line = ""
            for (index, word) in words.enumerated() {
                let escaped = Self.escape(word)
                if !line.isEmpty && line.count + 1 + escaped.count > 78 {
                    flush(&line)
                }
                line += (line.isEmpty ? "" : " ") + escaped
                let endsSentence = [".", "?", "!"].contains(word.last.map(String.init) ?? "")
                    && index + 1 < words.count && words[index + 1].first?.isUppercase == true
                if endsSentence { flush(&line) }
            }
            flush(&line)
        }
    }

    /// Raw mdoc, as written in the hand-made sections.
    mutating func raw(_ text: String) {
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    var page: String { lines.joined(separator: "\n") + "\n" }

    private mutating func flush(_ line: inout String) {
        guard !line.isEmpty else { return }
        lines.append(line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line)
        line = ""
    }

    /// `text` with backslashes and the glyphs roff spells otherwise escaped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\e"
            case "↑": escaped += "\\(ua"
            case "↓": escaped += "\\(da"
            case "←": escaped += "\\(<-"
            case "→": escaped += "\\(->"
            case "—": escaped += "\\(em"
            case "–": escaped += "\\(en"
            case "…": escaped += "..."
            case "‘", "’": escaped += "'"
            case "“", "”": escaped += "\""
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A macro argument: quoted when it holds spaces, escaped; a lone delimiter (`[`, `?`) kept as text.
    static func argument(_ text: String) -> String {
        if text.count == 1, "()[].,:;?!|".contains(text) { return "\\&" + text }
        let escaped = escape(text).replacingOccurrences(of: "\"", with: "\\(dq")
        return escaped.contains(" ") || escaped.isEmpty ? "\"" + escaped + "\"" : escaped
    }
}
