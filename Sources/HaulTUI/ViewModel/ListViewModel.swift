import HaulCore

/// Everything on screen as plain values: built by `ViewModelBuilder`, drawn by `ListRenderer`.
public struct ListViewModel: Sendable, Equatable {
    public struct Header: Sendable, Equatable {
        /// Tasks per state, in display order; states with no task are left out except running and waiting.
        public var counts: [Count]
        /// `23.4 MiB/s`, or `—` when nothing is running.
        public var speed: String
        /// `80.2 GiB`, nil when unknown.
        public var freeDisk: String?
        /// `80.2G`, nil when unknown.
        public var freeDiskCompact: String?
        /// What the schedule does to the queue now, when it holds it or is set aside: `paused until 23:00 by the
        /// schedule`, `schedule suspended until 23:00`; nil otherwise. Kept at 80 columns.
        public var schedule: String? = nil
        /// Its short form for narrow screens: `paused till 23:00`.
        public var scheduleShort: String? = nil
        /// The cap that holds now and why: `cap 300.0 KiB/s by the schedule`, `cap 4.0 MiB/s (global)`; nil for none.
        public var cap: String? = nil
        /// The cap alone: `cap 300.0 KiB/s`.
        public var capShort: String? = nil
    }

    public struct Count: Sendable, Equatable {
        public var number: Int
        public var word: String
        public var glyph: Character
        public var role: ColorRole
    }

    public struct Tab: Sendable, Equatable {
        public var title: String
        public var count: Int
        public var isActive: Bool
    }

    /// The line above the footer.
    public enum StatusLine: Sendable, Equatable {
        /// Where the selection is and the concurrency limit.
        case info(left: String, right: String)
        case message(String, isError: Bool)
        /// The add prompt with its text and cursor.
        case prompt(label: String, field: PromptField)
    }

    public enum Overlay: Sendable, Equatable {
        case help(HelpViewModel)
        case details(DetailsViewModel)
        case confirm(ConfirmViewModel)
    }

    /// What the column headings line says besides the headings.
    public struct ColumnHeader: Sendable, Equatable {
        /// The order of the rows; its column's heading is marked.
        public var sort: SortOrder = .queue
        /// The filter kept after Enter (or being typed), nil when none.
        public var filter: String?
        /// `10 of 300` while a filter hides rows.
        public var matches: String?
        /// How many tasks are marked; 0 for none.
        public var marked = 0

        public init(sort: SortOrder = .queue, filter: String? = nil, matches: String? = nil, marked: Int = 0) {
            self.sort = sort
            self.filter = filter
            self.matches = matches
            self.marked = marked
        }
    }

    public var header: Header
    public var columns = ColumnHeader()
    public var tabs: [Tab]
    /// The rows in the visible window, top to bottom.
    public var rows: [RowViewModel]
    /// Shown in the list area when the list is empty.
    public var emptyText: String?
    public var status: StatusLine
    /// In priority order (see `KeyBinding.footerItems`); the renderer drops from the end of the optional ones.
    public var footer: [FooterItem]
    /// Shown on the footer line instead of the keys while the prompt holds the status line (a refused URL).
    public var footerMessage: UIState.Message?
    public var overlay: Overlay?
    public var glyphs: GlyphSet
    /// The store's latest warning, drawn as a one-line banner over the bottom rule; nil when none.
    public var warning: String? = nil
}

/// The `?` screen: every binding of the table, by section.
public struct HelpViewModel: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        public var title: String
        public var entries: [Entry]
    }

    /// `↑ k` — `select the previous task`.
    public struct Entry: Sendable, Equatable {
        public var keys: String
        public var text: String
    }

    public var title: String
    public var sections: [Section]
    public var closingHint: String
    /// The first content line to show (`UIState.helpScroll`); the renderer clamps it.
    public var scroll: Int = 0
}

/// The Enter pane: one task's facts as label and value lines.
public struct DetailsViewModel: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var label: String
        /// The value; under a map, its caption.
        public var value: String
        /// A segment map drawn across the value's width, above the value.
        public var map: SegmentMap?
    }

    public var title: String
    public var fields: [Field]
    public var closingHint: String
    /// The first content line to show (`UIState.detailsScroll`); the renderer clamps it.
    public var scroll: Int = 0
}

/// The remove question.
public struct ConfirmViewModel: Sendable, Equatable {
    public var title: String
    /// The task's name first, then what removing means.
    public var lines: [String]
    /// What cannot be undone, if anything.
    public var warning: String?
    public var choices: [FooterItem]
}
