extension KeyBinding {
    /// The help's lines by section, from the table: a binding that joins the line before adds its keys there,
    /// slashed by position (`↑/↓ k/j`). The `?` box, the man page and `haul run --help` all list these.
    public static var helpSections: [(title: String, entries: [(keys: String, text: String)])] {
        Section.allCases.map { section in
            var entries: [(keys: String, text: String)] = []
            var joined: [[KeyPress]] = []
            func flush() {
                guard !joined.isEmpty else { return }
                entries[entries.count - 1].keys = helpKeys(joined)
                joined = []
            }
            for binding in table where binding.section == section {
                if binding.joinsHelpLine, !entries.isEmpty {
                    // The same keys on the line already (the details' ↑/↓ beside help's) add nothing.
                    if !joined.contains(binding.keys) { joined.append(binding.keys) }
                    continue
                }
                flush()
                entries.append((binding.keys.map(\.label).joined(separator: " "), binding.help))
                joined = [binding.keys]
            }
            flush()
            return (section.rawValue, entries)
        }
    }

    /// The keys of one help line: one binding's keys apart (`x Del F9`), several bindings' keys slashed by position
    /// (`↑/↓ k/j`, `</>`).
    static func helpKeys(_ bindings: [[KeyPress]]) -> String {
        guard bindings.count > 1 else { return bindings.first?.map(\.label).joined(separator: " ") ?? "" }
        let positions = bindings.map(\.count).max() ?? 0
        return (0..<positions).map { position in
            bindings.compactMap { $0.indices.contains(position) ? $0[position].label : nil }.joined(separator: "/")
        }.joined(separator: " ")
    }

    /// Every key as plain text lines, for the man page: `  ↑/↓ k/j       select previous/next` under each section.
    public static var manualText: String {
        let width = helpSections.flatMap(\.entries).map { DisplayWidth.of($0.keys) }.max() ?? 0
        return helpSections.map { section in
            ([section.title + ":"] + section.entries.map { "  " + DisplayWidth.fitted($0.keys, to: width) + "  " + $0.text })
                .joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
