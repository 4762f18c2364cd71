/// THE key table of the list screen: dispatch, the footer and the `?` help are all generated from it.
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

    public enum Section: String, Sendable, CaseIterable {
        case navigation = "Move around"
        case tasks = "Tasks"
        case queue = "Queue"
        case screen = "Screen"
    }

    public init(_ keys: [KeyPress], _ action: Action, help: String, footer: String? = nil, section: Section) {
        self.keys = keys
        self.action = action
        self.help = help
        self.footer = footer
        self.section = section
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
            [.character(" "), .character("p")], .toggleSelected, help: "pause, resume, or retry a failed task",
            footer: "pause/resume", section: .tasks),
        KeyBinding([.character("a")], .add, help: "add URLs (paste works; Esc cancels)", footer: "add", section: .tasks),
        KeyBinding(
            [.character("x"), .delete], .remove, help: "remove (asks whether to delete the partial file)",
            footer: "remove", section: .tasks),
        KeyBinding([.enter], .showDetails, help: "details: URL, path, validators, attempts, error", footer: "details", section: .tasks),
        KeyBinding([.character("P")], .pauseAll, help: "pause all", section: .queue),
        KeyBinding([.character("S")], .startAll, help: "start all (resume paused, retry failed)", section: .queue),
        KeyBinding([.character("J")], .moveDown, help: "move the task down in the queue", footer: "move", section: .queue),
        KeyBinding([.character("K")], .moveUp, help: "move the task up in the queue", footer: "move", section: .queue),
        KeyBinding([.character("<")], .decreaseConcurrency, help: "one download fewer at a time", footer: "limit", section: .queue),
        KeyBinding([.character(">")], .increaseConcurrency, help: "one download more at a time", footer: "limit", section: .queue),
        KeyBinding([.tab], .switchList, help: "switch Downloading / Completed", footer: "lists", section: .screen),
        KeyBinding([.character("?"), .function(1)], .toggleHelp, help: "this help", footer: "help", section: .screen),
        KeyBinding(
            [.character("q")], .quit, help: "quit (state is saved; running tasks resume next start)",
            footer: "quit", section: .screen),
    ]

    /// The action bound to `key` on the list screen.
    public static func action(for key: KeyPress) -> Action? {
        table.first { $0.keys.contains(key) }?.action
    }

    /// The first binding for `action`.
    public static func binding(for action: Action) -> KeyBinding? {
        table.first { $0.action == action }
    }

    /// Footer items in priority order: the ones that must stay visible first. The renderer keeps as
    /// many as fit and shows them in table order.
    public static var footerItems: [FooterItem] {
        var items: [FooterItem] = []
        for binding in table {
            guard let word = binding.footer, let key = binding.keys.first else { continue }
            if let last = items.last, last.label == word {
                items[items.count - 1].keys += "/" + key.label
            } else {
                let essential = binding.action == .toggleHelp || binding.action == .quit
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
