/// THE key table of the list screen and the boxes over it: dispatch, the footers and the `?` help are
/// all generated from it. A key means one thing per scope (`↓` selects in the list and scrolls in help).
public struct KeyBinding: Sendable, Equatable {
    /// Keys that trigger the action; the first few are shown in help.
    public var keys: [KeyPress]
    public var action: Action
    /// The line in the help screen; for a binding that joins the line before (`joinsHelpLine`), what it does alone.
    public var help: String
    /// Shares the previous binding's help line, its keys joined with a slash (`↑/↓ k/j  select previous/next`),
    /// so that the help fits 80×24 with every key in it.
    public var joinsHelpLine = false
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
        case screen = "Screen"
        case queue = "Queue"
        case overlays = "In help and details"
    }

    /// The screen a key is read on: the list, or the help or details box over it.
    public enum Scope: Sendable, Hashable, CaseIterable {
        case list, help, details
    }

    public init(
        _ keys: [KeyPress], _ action: Action, help: String, footer: String? = nil, section: Section, scopes: Set<Scope> = [.list],
        joinsHelpLine: Bool = false
    ) {
        self.joinsHelpLine = joinsHelpLine
        self.keys = keys
        self.action = action
        self.help = help
        self.footer = footer
        self.section = section
        self.scopes = scopes
    }

    /// The table, in footer order of importance for the items that have a footer word.
    public static let table: [KeyBinding] = [
        KeyBinding([.up, .character("k")], .selectPrevious, help: "select previous/next", section: .navigation),
        KeyBinding([.down, .character("j")], .selectNext, help: "select the next task", section: .navigation, joinsHelpLine: true),
        KeyBinding([.pageUp], .pageUp, help: "one page up/down", section: .navigation),
        KeyBinding([.pageDown], .pageDown, help: "one page down", section: .navigation, joinsHelpLine: true),
        KeyBinding([.home, .character("g")], .selectFirst, help: "first/last task", section: .navigation),
        KeyBinding([.end, .character("G")], .selectLast, help: "last task", section: .navigation, joinsHelpLine: true),
        KeyBinding(
            [.character(" "), .character("p")], .toggleSelected, help: "pause/resume/retry",
            footer: "pause/resume", section: .tasks),
        KeyBinding([.character("/"), .function(3)], .filter, help: "filter (Esc clears it)", footer: "filter", section: .navigation),
        KeyBinding([.character("o"), .function(6)], .cycleSort, help: "next sort order", footer: "sort", section: .navigation),
        KeyBinding([.character("a")], .add, help: "add URLs (paste works)", footer: "add", section: .tasks),
        KeyBinding([.character("e")], .editLink, help: "new link, same bytes", section: .tasks),
        KeyBinding(
            [.character("x"), .delete, .function(9)], .remove, help: "remove (asks first)",
            footer: "remove", section: .tasks),
        // A group's row (DESIGN §12): Enter or → opens it, ← closes it (from one of its tasks too); one help line.
        KeyBinding([.enter], .showDetails, help: "details; fold a group", footer: "details", section: .tasks),
        KeyBinding([.left], .collapseGroup, help: "close a group", footer: "group", section: .tasks, joinsHelpLine: true),
        KeyBinding([.right], .expandGroup, help: "open a group", footer: "group", section: .tasks, joinsHelpLine: true),
        KeyBinding([.character("m")], .toggleMark, help: "mark / clear marks", footer: "mark", section: .tasks),
        KeyBinding([.character("M")], .clearMarks, help: "clear every mark", section: .tasks, joinsHelpLine: true),
        KeyBinding([.character("+")], .moreConnections, help: "connections more/fewer", section: .tasks),
        KeyBinding([.character("-")], .fewerConnections, help: "one connection fewer", section: .tasks, joinsHelpLine: true),
        KeyBinding([.character("P")], .pauseAll, help: "pause all", section: .queue),
        KeyBinding([.character("S")], .startAll, help: "start or retry all", section: .queue),
        KeyBinding([.character("R")], .retryFailed, help: "retry the failed shown", section: .queue),
        KeyBinding([.character("C")], .clearFinished, help: "clear finished (asks)", section: .queue),
        KeyBinding([.character("z")], .suspendSchedule, help: "schedule aside / back", section: .queue),
        KeyBinding([.character("J")], .moveDown, help: "move down/up in queue", footer: "move", section: .queue),
        KeyBinding([.character("K")], .moveUp, help: "move up in the queue", footer: "move", section: .queue, joinsHelpLine: true),
        KeyBinding([.character("<")], .decreaseConcurrency, help: "fewer/more running", footer: "running", section: .queue),
        KeyBinding(
            [.character(">")], .increaseConcurrency, help: "one more running at a time", footer: "running", section: .queue,
            joinsHelpLine: true),
        KeyBinding([.character("[")], .lowerOverallLimit, help: "lower/raise the cap", footer: "cap", section: .queue),
        KeyBinding([.character("]")], .raiseOverallLimit, help: "raise the cap (to none)", footer: "cap", section: .queue, joinsHelpLine: true),
        KeyBinding([.tab], .switchList, help: "Downloading/Completed", footer: "lists", section: .screen),
        KeyBinding([.character("?"), .function(1)], .toggleHelp, help: "this help", footer: "help", section: .screen),
        KeyBinding([.character("q"), .function(10)], .quit, help: "quit (all is saved)", footer: "quit", section: .screen),
        KeyBinding([.character("d")], .detach, help: "detach to background", section: .screen),
        // In help, any key without a binding here closes it as well.
        KeyBinding([.up, .character("k")], .scrollUp, help: "scroll; details: task", footer: "scroll", section: .overlays, scopes: [.help]),
        KeyBinding(
            [.down, .character("j")], .scrollDown, help: "help: one line down", footer: "scroll", section: .overlays, scopes: [.help],
            joinsHelpLine: true),
        KeyBinding([.up, .character("k")], .selectPrevious, help: "details: previous task", footer: "task", section: .overlays, scopes: [.details], joinsHelpLine: true),
        KeyBinding([.down, .character("j")], .selectNext, help: "details: next task", footer: "task", section: .overlays, scopes: [.details], joinsHelpLine: true),
        KeyBinding([.pageUp], .scrollPageUp, help: "page up/down", footer: "page", section: .overlays, scopes: [.help, .details]),
        KeyBinding(
            [.pageDown], .scrollPageDown, help: "one page down", footer: "page", section: .overlays, scopes: [.help, .details],
            joinsHelpLine: true),
        KeyBinding([.character(" ")], .scrollPageDown, help: "help: page down", section: .overlays, scopes: [.help]),
        KeyBinding([.home, .character("g")], .scrollTop, help: "to the top/end", section: .overlays, scopes: [.help, .details]),
        KeyBinding([.end, .character("G")], .scrollBottom, help: "to the end", section: .overlays, scopes: [.help, .details], joinsHelpLine: true),
        KeyBinding(
            [.escape, .character("q")], .closeOverlay, help: "close (help: any key)", footer: "close", section: .overlays,
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
