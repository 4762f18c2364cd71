/// A semantic colour role: what a cell means, never which colour it has. Themes map roles to styles.
///
/// Roles are dotted names. A role a theme leaves out takes its parent's style (`bar.done` → `bar` →
/// `text`), field by field, so a theme can set `state = { bold = true }` once for every state glyph.
/// `row.selected` is special: it is laid over every cell of the selected row, and only the fields the
/// theme sets on `row.selected` itself change those cells, so bars keep their colours under a selection.
public enum ColorRole: String, CaseIterable, Sendable, Hashable {
    /// Base of every role: the terminal's own colours unless a theme says otherwise.
    case text
    case header
    case headerTitle = "header.title"
    case headerCounts = "header.counts"
    case headerSpeed = "header.speed"
    case headerDisk = "header.disk"
    /// The horizontal rules above and below the list.
    case rule
    /// The list names on the upper rule (Downloading, Completed).
    case tab
    case tabActive = "tab.active"
    case row
    case rowSelected = "row.selected"
    /// The selection marker at the start of the selected row.
    case rowMarker = "row.marker"
    case rowName = "row.name"
    /// The mark beside a marked row's state glyph (`m`).
    case rowMark = "row.mark"
    /// The error text of a failed row.
    case rowError = "row.error"
    /// "press p to retry" and similar hints inside a row.
    case rowHint = "row.hint"
    case state
    case stateRunning = "state.running"
    case stateWaiting = "state.waiting"
    case stateRetrying = "state.retrying"
    case statePaused = "state.paused"
    case stateFailed = "state.failed"
    case stateCompleted = "state.completed"
    case bar
    case barDone = "bar.done"
    case barRemaining = "bar.remaining"
    /// The moving block shown while the size is unknown.
    case barActivity = "bar.activity"
    case column
    case columnPercent = "column.percent"
    case columnSize = "column.size"
    case columnSpeed = "column.speed"
    case columnEta = "column.eta"
    /// The column headings line, and the heading of the column the list is sorted by.
    case columnHeading = "column.heading"
    case columnSorted = "column.sorted"
    /// The line above the footer when it shows the list position and the concurrency limit.
    case status
    case message
    case messageError = "message.error"
    /// The one-line banner over the bottom rule with the latest warning from the store.
    case bannerWarning = "banner.warning"
    case prompt
    case promptLabel = "prompt.label"
    case promptCursor = "prompt.cursor"
    case footer
    case footerKey = "footer.key"
    case footerLabel = "footer.label"
    /// Help, details and confirm boxes.
    case dialog
    case dialogBorder = "dialog.border"
    case dialogTitle = "dialog.title"
    case dialogKey = "dialog.key"
    case dialogLabel = "dialog.label"
    case dialogWarning = "dialog.warning"
    /// The hint shown when a list is empty.
    case empty

    /// The role this one falls back to; nil only for `text`.
    public var parent: ColorRole? {
        if self == .text { return nil }
        guard let dot = rawValue.lastIndex(of: ".") else { return .text }
        return ColorRole(rawValue: String(rawValue[..<dot])) ?? .text
    }

    /// Roles from the root down to this one: `[text, bar, bar.done]`.
    var lineage: [ColorRole] {
        var chain = [self]
        while let parent = chain.last?.parent { chain.append(parent) }
        return chain.reversed()
    }
}
