import HaulCore
import HaulTUI

/// haul(1), in mdoc: SYNOPSIS, OPTIONS and COMMANDS from the argument parser's description of the commands; values,
/// defaults and settings keys from `OptionRegistry`; KEYS from `KeyBinding.table`; EXIT STATUS from `ExitStatus`;
/// the prose sections from `man/*.mdoc` in the repository. A value, rendered once.
struct ManualPage {
    let root: CommandDump
    /// The hand-written sections by file name without `.mdoc` (`description`, `environment`, …).
    let sections: [String: String]
    /// `.Dd`'s date, as mdoc writes it (`November 27, 2026`).
    let date: String

    var run: CommandDump? { root.subcommands?.first { $0.commandName == "run" } }
    /// The commands a user runs (not the argument parser's `help`).
    var commands: [CommandDump] {
        (root.subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
    }

    func render() -> String {
        var page = Mdoc()
        page.macro("Dd", date)
        page.macro("Dt", root.commandName.uppercased() + " 1")
        page.macro("Os")
        page.macro("Sh", "NAME")
        page.macro("Nm", root.commandName)
        page.macro("Nd", Mdoc.escape((root.abstract ?? "").trimmingTrailingPeriod.lowercasedFirst))
        synopsis(&page)
        page.macro("Sh", "DESCRIPTION")
        page.raw(sections["description"] ?? "")
        options(&page)
        subcommands(&page)
        keys(&page)
        page.macro("Sh", "SETTINGS FILE")
        page.raw(sections["settings"] ?? "")
        settingsKeys(&page)
        for (title, name) in [("SCHEDULES", "schedules"), ("ENVIRONMENT", "environment"), ("FILES", "files")] {
            page.macro("Sh", title)
            page.raw(sections[name] ?? "")
        }
        exitStatus(&page)
        page.macro("Sh", "EXAMPLES")
        page.raw(sections["examples"] ?? "")
        page.macro("Sh", "SEE ALSO")
        page.raw(sections["see-also"] ?? "")
        return page.page
    }

    private func synopsis(_ page: inout Mdoc) {
        page.macro("Sh", "SYNOPSIS")
        page.macro("Nm")
        page.macro("Op", "Ar options")
        page.macro("Op", "Ar url ...")
        for command in commands {
            page.macro("Nm")
            page.macro("Cm", command.commandName)
            if command.documentedArguments.contains(where: { !$0.isPositional }) { page.macro("Op", "Ar options") }
            for argument in command.documentedArguments where argument.isPositional {
                let name = Mdoc.argument(argument.valueName ?? "value") + (argument.isRepeating ? " ..." : "")
                page.macro(argument.isOptional ? "Op" : "Ar", argument.isOptional ? "Ar " + name : name)
            }
        }
    }

    private func options(_ page: inout Mdoc) {
        page.macro("Sh", "OPTIONS")
        page.text("""
            These are the options of a run (haul URL..., haul run, haul daemon); haul add takes those that \
            concern tasks, and haul config takes them all to show the settings they make. Every long option of \
            a run is also a key of the settings file (see SETTINGS FILE); the command line wins over the file.
            """)
        let options = Self.mergingInversions((run?.documentedArguments ?? []).filter { !$0.isPositional })
        for group in OptionSections.grouped(options) {
            page.macro("Ss", Mdoc.argument(group.title))
            page.macro("Bl", "-tag -width Ds")
            for option in group.options { item(option, &page) }
            page.macro("El")
        }
    }

    /// `options` with each `--no-X` that turns an `--X` off (`--no-notify`) given as one of `--X`'s spellings.
    static func mergingInversions(_ options: [ArgumentDump]) -> [ArgumentDump] {
        let names = Set(options.compactMap(\.longName))
        let inverses = options.filter { option in
            option.longName.map { $0.hasPrefix("no-") && names.contains(String($0.dropFirst(3))) } ?? false
        }
        return options.compactMap { option in
            if inverses.contains(option) { return nil }
            var merged = option
            for inverse in inverses where inverse.longName == "no-" + (option.longName ?? "") {
                merged.names = (merged.names ?? []) + (inverse.names ?? [])
            }
            return merged
        }
    }

    /// One option: its spellings and value, what it does, its default.
    private func item(_ option: ArgumentDump, _ page: inout Mdoc) {
        let spellings = option.spellings.map { "Fl " + $0.dropFirst() }.joined(separator: " , ")
        let value = option.isFlag || option.isPositional ? "" : " Ar " + Mdoc.argument(option.valueName ?? "value")
        page.macro("It", spellings + value)
        var prose = option.abstract ?? ""
        if let discussion = option.discussion, !discussion.isEmpty { prose += "\n\n" + discussion }
        if let inverse = option.spellings.first(where: { $0.hasPrefix("--no-") }), option.spellings.count > 1 {
            prose += " " + inverse + " turns it off (over the settings file)."
        }
        if let choices = option.longName.flatMap(OptionRegistry.named).map(\.values), case let .choices(words) = choices {
            prose += " One of: " + words.joined(separator: ", ") + "."
        }
        if !prose.lowercased().contains("default"), let shown = defaultText(option) { prose += " Default: " + shown + "." }
        page.text(prose)
    }

    private func defaultText(_ option: ArgumentDump) -> String? {
        if let name = option.longName, let definition = OptionRegistry.named(name) {
            switch definition.defaultValue {
            case let .string(text)?: return text
            case let .int(number)?: return String(number)
            default: return nil
            }
        }
        return option.isFlag ? nil : option.defaultValue
    }

    private func subcommands(_ page: inout Mdoc) {
        page.macro("Sh", "COMMANDS")
        page.text("Without a command, haul runs: it adds the URLs given, then runs the queue (also haul run).")
        let runOptions = Set((run?.documentedArguments ?? []).compactMap(\.longName))
        page.macro("Bl", "-tag -width Ds")
        for command in commands {
            let positional = command.documentedArguments.filter(\.isPositional).map { argument in
                let name = "Ar " + Mdoc.argument(argument.valueName ?? "value") + (argument.isRepeating ? " ..." : "")
                return argument.isOptional ? "Op " + name : name
            }
            page.macro("It", (["Cm " + command.commandName] + positional).joined(separator: " "))
            page.text([command.abstract, command.discussion].compactMap { $0 }.joined(separator: "\n\n"))
            let options = Self.mergingInversions(command.documentedArguments.filter { !$0.isPositional })
            let own = options.filter { !runOptions.contains($0.longName ?? "") }
            let shared = options.filter { runOptions.contains($0.longName ?? "") }
            if !own.isEmpty {
                page.macro("Bl", "-tag -width Ds")
                for option in own { item(option, &page) }
                page.macro("El")
            }
            if !shared.isEmpty, command.commandName != "daemon", command.commandName != "config" {
                page.text("Also takes " + shared.flatMap(\.spellings).filter { $0.hasPrefix("--") }.joined(separator: ", ")
                    + " (see OPTIONS).")
            } else if !shared.isEmpty {
                page.text("Takes every option of a run (see OPTIONS).")
            }
        }
        page.macro("El")
    }

    private func keys(_ page: inout Mdoc) {
        page.macro("Sh", "KEYS")
        page.text("The live list (haul on a terminal) reads these keys; ? shows them on the screen.")
        for section in KeyBinding.Section.allCases {
            let bindings = KeyBinding.table.filter { $0.section == section }
            guard !bindings.isEmpty else { continue }
            page.macro("Ss", Mdoc.argument(section.rawValue))
            page.macro("Bl", "-tag -width Ds -compact")
            for binding in bindings {
                page.macro("It", binding.keys.map { "Sy " + Mdoc.argument($0.label) }.joined(separator: " , "))
                page.text(binding.help.uppercasedFirst + ".")
            }
            page.macro("El")
        }
    }

    private func settingsKeys(_ page: inout Mdoc) {
        let live = OptionRegistry.all.filter { $0.change == .live }.map(\.name)
        let perTask = OptionRegistry.all.filter { $0.scope == .task }.map(\.name)
        page.text("Keys a running haul takes at once on haul config --reload or SIGHUP: " + live.joined(separator: ", ")
            + ". The others wait for the next start.")
        page.text("Keys a rule, an input file entry or an RPC client may set for one download: "
            + perTask.joined(separator: ", ") + ".")
    }

    private func exitStatus(_ page: inout Mdoc) {
        page.macro("Sh", "EXIT STATUS")
        page.macro("Bl", "-tag -width Ds")
        for status in ExitStatus.documented {
            page.macro("It", String(status.rawValue))
            page.text(status.meaning)
        }
        page.macro("El")
    }
}

extension String {
    var trimmingTrailingPeriod: String { hasSuffix(".") ? String(dropLast()) : self }
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
    var uppercasedFirst: String { prefix(1).uppercased() + dropFirst() }
}
