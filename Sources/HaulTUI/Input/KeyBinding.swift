/// THE key table of the list screen and the boxes over it: dispatch, the footers and the `?` help are
/// all generated from it. A key means one thing per scope (`↓` selects in the list and scrolls in help).
public struct KeyBinding: Sendable, Equatable {
    /// Keys that trigger the action; the first few are shown in help.
    public var keys: [KeyPress]
    public var action: Action
    /// The line in the help screen.
    public var help: String
    /// The word in the footer; nil keeps the binding out of the footer. Adjacent bindings with the same
    /// footer word share one footer item (`J/K move`).
    public var footer: String?
    /// Which help section the binding is listed under.
    public var section: Section
    /// Where the binding works.
    public var scopes: Set<Scope>

    public enum Section: String, Sendable, CaseIterable {
        case navigation = "Move around"
        case tasks = "Tasks"
        case queue = "Queue"
        case screen = "Screen"
        case overlays = "In help and details"
    }

    /// The screen a key is read on: the list, or the help or details box over it.
    public enum Scope: Sendable, Hashable, CaseIterable {
        case list, help, details
    }

    public init(
        _ keys: [KeyPress], _ action: Action, help: String, footer: String? = nil, section: Section, scopes: Set<Scope> = [.list]
    ) {
        self.keys = keys
        self.action = action
        self.help = help
        self.footer = footer
        self.section = section
        self.scopes = scopes
    }

    /// The table, in footer order of importance for the items that have a footer word.
    public static let table: [KeyBinding] = [
        KeyBinding([.up, .character("k")], .selectPrevious, help: "select the previous task", section: .navigation),
        KeyBinding([.down, .character("j")], .selectNext, help: "select the next task", section: .navigation),
        KeyBinding([.pageUp], .pageUp, help: "one page up", section: .navigation),
        KeyBinding([.pageDown], .pageDown, help: "one page down", section: .navigation),
        KeyBinding([.home, .character("g")], .selectFirst, help: "first task", section: .navigation),
        KeyBinding([.end, .character("G")], .selectLast, help: "last task", section: .navigation),
        KeyBinding(
            [.character(" "), .character("p")], .toggleSelected, help: "pause, resume or retry (marked tasks, else this one)",
            footer: "pause/resume", section: .tasks),
        KeyBinding([.character("/"), .function(3)], .filter, help: "filter by name or link (Esc clears)", footer: "filter", section: .navigation),
        KeyBinding([.character("o"), .function(6)], .cycleSort, help: "sort: queue, name, size, progress, speed…", footer: "sort", section: .navigation),
        KeyBinding([.character("a")], .add, help: "add URLs (paste works; Esc cancels)", footer: "add", section: .tasks),
        KeyBinding([.character("e")], .editLink, help: "new link (keeps the bytes if the same file)", section: .tasks),
        KeyBinding(
            [.character("x"), .delete, .function(9)], .remove, help: "remove (asks; the partial file may stay)",
            footer: "remove", section: .tasks),
        KeyBinding([.enter], .showDetails, help: "details: link, path, validators, error", footer: "details", section: .tasks),
        KeyBinding([.character("m")], .toggleMark, help: "mark or unmark the task", footer: "mark", section: .tasks),
        KeyBinding([.character("M")], .clearMarks, help: "clear every mark", section: .tasks),
        KeyBinding([.character("+")], .moreConnections, help: "one connection more (marked, else this)", section: .tasks),
        KeyBinding([.character("-")], .fewerConnections, help: "one connection fewer (marked, else this)", section: .tasks),
        KeyBinding([.character("P")], .pauseAll, help: "pause all", section: .queue),
        KeyBinding([.character("S")], .startAll, help: "start all (resume paused, retry failed)", section: .queue),
        KeyBinding([.character("R")], .retryFailed, help: "retry the failed tasks shown", section: .queue),
        KeyBinding([.character("C")], .clearFinished, help: "clear finished rows (asks; files stay)", section: .queue),
        KeyBinding([.character("z")], .suspendSchedule, help: "set the schedule aside / take it up again", section: .queue),
        KeyBinding([.character("J")], .moveDown, help: "move down in the queue", footer: "move", section: .queue),
        KeyBinding([.character("K")], .moveUp, help: "move up in the queue", footer: "move", section: .queue),
        KeyBinding([.character("<")], .decreaseConcurrency, help: "one download fewer running at a time", footer: "running", section: .queue),
        KeyBinding([.character(">")], .increaseConcurrency, help: "one download more running at a time", footer: "running", section: .queue),
        KeyBinding([.character("[")], .lowerOverallLimit, help: "lower the bandwidth cap on all downloads", footer: "cap", section: .queue),
        KeyBinding([.character("]")], .raiseOverallLimit, help: "raise the bandwidth cap (to none)", footer: "cap", section: .queue),
        KeyBinding([.tab], .switchList, help: "switch Downloading / Completed", footer: "lists", section: .screen),
        KeyBinding([.character("?"), .function(1)], .toggleHelp, help: "this help", footer: "help", section: .screen),
        KeyBinding(
            [.character("q"), .function(10)], .quit, help: "quit (saved; running tasks resume next start)",
            footer: "quit", section: .screen),
        KeyBinding(
            [.character("d")], .detach, help: "detach: downloads go on in the background",
            section: .screen),
        // In help, any key without a binding here closes it as well.
        KeyBinding([.up, .character("k")], .scrollUp, help: "help: one line up", footer: "scroll", section: .overlays, scopes: [.help]),
        KeyBinding([.down, .character("j")], .scrollDown, help: "help: one line down", footer: "scroll", section: .overlays, scopes: [.help]),
        KeyBinding([.up, .character("k")], .selectPrevious, help: "details: the previous task", footer: "task", section: .overlays, scopes: [.details]),
        KeyBinding([.down, .character("j")], .selectNext, help: "details: the next task", footer: "task", section: .overlays, scopes: [.details]),
        KeyBinding([.pageUp], .scrollPageUp, help: "one page up", footer: "page", section: .overlays, scopes: [.help, .details]),
        KeyBinding([.pageDown], .scrollPageDown, help: "one page down", footer: "page", section: .overlays, scopes: [.help, .details]),
        KeyBinding([.character(" ")], .scrollPageDown, help: "help: one page down", section: .overlays, scopes: [.help]),
        KeyBinding([.home, .character("g")], .scrollTop, help: "to the top", section: .overlays, scopes: [.help, .details]),
        KeyBinding([.end, .character("G")], .scrollBottom, help: "to the end", section: .overlays, scopes: [.help, .details]),
        KeyBinding(
            [.escape, .character("q")], .closeOverlay, help: "close (help: any other key too)", footer: "close", section: .overlays,
            scopes: [.help, .details]),
        KeyBinding([.enter], .closeOverlay, help: "details: close", section: .overlays, scopes: [.details]),
    ]

    /// The action bound to `key` in `scope`.
    public static func action(for key: KeyPress, in scope: Scope = .list) -> Action? {
        table.first { $0.scopes.contains(scope) && $0.keys.contains(key) }?.action
    }

    /// The first binding for `action` in `scope`.
    public static func binding(for action: Action, in scope: Scope = .list) -> KeyBinding? {
        table.first { $0.action == action && $0.scopes.contains(scope) }
    }

    /// The footer of `scope` in priority order: the ones that must stay visible first. The renderer keeps
    /// as many as fit and shows them in table order.
    public static func footerItems(in scope: Scope = .list) -> [FooterItem] {
        var items: [FooterItem] = []
        for binding in table where binding.scopes.contains(scope) {
            guard let word = binding.footer, let key = binding.keys.first else { continue }
            if let last = items.last, last.label == word {
                items[items.count - 1].keys += "/" + key.label
            } else {
                let essential = binding.action == .toggleHelp || binding.action == .quit || binding.action == .closeOverlay
                items.append(FooterItem(keys: key.label, label: word, essential: essential))
            }
        }
        return items
    }

    /// The key a row hint names for `action`: the first letter key, else the first key ("press p to retry").
    public static func hintKey(for action: Action) -> String {
        guard let binding = binding(for: action) else { return "?" }
        let letter = binding.keys.first { if case let .character(c) = $0 { return c.isLetter } else { return false } }
        return (letter ?? binding.keys.first)?.label ?? "?"
    }
}

/// One `keys label` pair in the footer.
public struct FooterItem: Sendable, Equatable {
    public var keys: String
    public var label: String
    /// Kept when the footer is too narrow for every item (the others go first, last one first).
    public var essential: Bool

    public init(keys: String, label: String, essential: Bool = false) {
        self.keys = keys
        self.label = label
        self.essential = essential
    }
}
