import HaulCore

/// Everything the screen remembers between frames: which list, which task is selected, the open
/// dialog, the message line. Only the interactive loop owns one; `reduce` is pure.
///
/// The selection is a task id, not a row number, so a row stays selected while the list around it
/// changes; when the task leaves the list the selection stays at the same position (its neighbour).
public struct UIState: Sendable, Equatable {
    public enum ListKind: Sendable, Equatable, CaseIterable {
        case downloading, completed
    }

    public enum Mode: Sendable, Equatable {
        case list
        case help
        /// The details pane of the selected task.
        case details
        /// The add prompt.
        case prompt(PromptField)
        /// Asking whether to remove the task (and delete its partial file).
        case confirmRemove(TaskID)
        /// Asking what to do with a task's kept bytes when its new link did not prove the same file.
        case confirmLink(TaskID)
        /// Typing the filter (`/`): the list narrows as it is typed.
        case filter(PromptField)
        /// Asking once before acting on several tasks (the marked ones, or the finished ones for `C`).
        case confirmBulk(BulkQuestion)

        public var isPrompt: Bool {
            if case .prompt = self { return true }
            return false
        }
    }

    /// Where a list is: selected task, its row index, and the first row on screen.
    public struct Cursor: Sendable, Equatable {
        public var selected: TaskID?
        public var index: Int
        public var top: Int

        public init(selected: TaskID? = nil, index: Int = 0, top: Int = 0) {
            self.selected = selected
            self.index = index
            self.top = top
        }
    }

    /// A line for the message row, shown until the next key.
    public struct Message: Sendable, Equatable {
        public var text: String
        public var isError: Bool

        public init(_ text: String, isError: Bool = false) {
            self.text = text
            self.isError = isError
        }
    }

    public var list: ListKind
    public var downloading: Cursor
    public var completed: Cursor
    public var mode: Mode
    public var message: Message?
    /// Set by `q`; the loop exits after the frame.
    public var quitRequested: Bool
    /// The user asked to leave the downloads to a background haul.
    public var detachRequested = false
    /// The first content line of the help box; 0 each time it opens. The renderer clamps it to the content.
    public var helpScroll: Int
    /// The first content line of the details box; 0 when it opens and when the selection moves.
    public var detailsScroll: Int
    /// The filter, the order and the marks of the lists.
    public var view = ListView()

    public init(
        list: ListKind = .downloading, downloading: Cursor = Cursor(), completed: Cursor = Cursor(),
        mode: Mode = .list, message: Message? = nil, quitRequested: Bool = false, helpScroll: Int = 0, detailsScroll: Int = 0,
        view: ListView = ListView()
    ) {
        self.view = view
        self.list = list
        self.downloading = downloading
        self.completed = completed
        self.mode = mode
        self.message = message
        self.quitRequested = quitRequested
        self.helpScroll = helpScroll
        self.detailsScroll = detailsScroll
    }

    /// The cursor of the list on screen.
    public var cursor: Cursor {
        get { list == .downloading ? downloading : completed }
        set { if list == .downloading { downloading = newValue } else { completed = newValue } }
    }

    /// This state with both cursors fitted to the current lists: the selected task keeps its selection
    /// wherever it moved; a vanished one hands it to the row now at its place; the window scrolls only
    /// as far as needed to keep the selection visible.
    public func synchronized(with context: UIContext) -> UIState {
        var state = self
        state.downloading = Self.fit(downloading, to: context.downloading, visibleRows: context.visibleRows)
        state.completed = Self.fit(completed, to: context.completed, visibleRows: context.visibleRows)
        if case let .confirmRemove(id) = mode, context.row(id) == nil { state.mode = .list }
        if case let .confirmLink(id) = mode, context.row(id)?.state.isUnfinished != true { state.mode = .list }
        // A mark on a task that left the queue goes with it.
        if !view.marks.isEmpty, !context.vanishedMarks.isEmpty { state.view.marks.subtract(context.vanishedMarks) }
        return state
    }

    static func fit(_ cursor: Cursor, to rows: UIContext.RowList, visibleRows: Int) -> Cursor {
        guard !rows.isEmpty else { return Cursor() }
        var result = cursor
        if let selected = cursor.selected, let found = Self.index(of: selected, in: rows, near: cursor.index) {
            result.index = found
        } else {
            result.index = min(max(0, cursor.index), rows.count - 1)
            result.selected = rows[result.index].id
        }
        let page = max(1, visibleRows)
        if result.index < result.top { result.top = result.index }
        if result.index >= result.top + page { result.top = result.index - page + 1 }
        result.top = max(0, min(result.top, rows.count - page))
        return result
    }

    /// Finds `id`, looking first where it was (cheap for the usual case of a list that did not move).
    static func index(of id: TaskID, in rows: UIContext.RowList, near guess: Int) -> Int? {
        if rows.indices.contains(guess), rows[guess].id == id { return guess }
        return rows.firstIndex { $0.id == id }
    }
}

/// What the reducer needs to know about the queue: both lists in screen order, the page size and
/// the settings a command needs.
public struct UIContext: Sendable, Equatable {
    /// The little the reducer needs about one row.
    public struct RowRef: Sendable, Equatable {
        public var id: TaskID
        public var state: TaskState
        /// The name messages quote. A task's is worked out when read (from its link, which is parsed), so the
        /// references of 10,000 rows a context holds cost no name but the one a key asks for.
        public var name: String { DownloadTask.displayName(fileName: fileName, requestedName: requestedName, url: url) }
        /// What `name` comes from, with `url`: a task's names, or a name given as it is (as a file name).
        private var fileName: String?
        private var requestedName: String?
        /// Connections the download may use.
        public var split: Int
        /// Its link, and whether a replaced one still waits for the server's word (`LinkChange`).
        public var url: String
        public var linkChange: LinkChange?
        /// For a group's row: its tasks in queue order, every one whatever the filter shows; empty for a task.
        public var members: RowList = []
        /// The group a group's row stands for, or the expanded group a task is shown beneath; nil for a plain row.
        public var group: String?
        /// For a group's row: how many of its tasks the filter keeps (all without one).
        public var shownMembers = 0

        /// True for a group's row (DESIGN §12): its id is `ShownGroup.rowID`, never a task's.
        public var isGroup: Bool { !members.isEmpty }

        /// The reference of a snapshot's row.
        public init(_ row: QueueSnapshot.Row) {
            let task = row.task
            self.init(id: task.id, state: task.state, name: "", split: row.split, url: task.url, linkChange: task.linkChange)
            (fileName, requestedName) = (task.fileName, task.requestedName)
        }

        /// Every row's reference, by index.
        public static func all(_ snapshot: QueueSnapshot) -> [RowRef] { snapshot.rows.map(RowRef.init) }

        /// What the reference of `row` is made of, hashed: equal for rows whose references are equal (and, but for a
        /// chance of one in 2^64, only for those). What `ShownRowsCache` keeps of each row to tell a reference changed.
        public static func fingerprint(_ row: QueueSnapshot.Row) -> Int {
            let task = row.task
            var hasher = Hasher()
            hasher.combine(task.id)
            hasher.combine(task.state)
            hasher.combine(task.fileName)
            hasher.combine(task.requestedName)
            hasher.combine(row.split)
            hasher.combine(task.url)
            hasher.combine(task.linkChange)
            return hasher.finalize()
        }

        public init(id: TaskID, state: TaskState, name: String, split: Int = 1, url: String = "", linkChange: LinkChange? = nil) {
            self.id = id
            self.state = state
            fileName = name
            self.split = split
            self.url = url
            self.linkChange = linkChange
        }
    }

    public var downloading: RowList
    public var completed: RowList
    /// Rows that fit on screen (the page for PgUp/PgDn).
    public var visibleRows: Int
    public var maxConcurrent: Int
    /// The cap on all downloads together, bytes per second; nil for none.
    public var overallLimit: RateLimit?
    /// What the schedule does now, and whether the user set it aside (`z`).
    public var schedule: String?
    public var scheduleSuspended = false
    /// Tasks of the queue the snapshot does not hold yet (`QueueSnapshot.rowsToCome`): a group's keys wait for them.
    public var rowsToCome = 0
    /// Where added URLs are downloaded.
    public var downloadDirectory: String
    /// The proxies of added URLs.
    public var proxyDefaults = ProxySettings()
    /// The settings file's rules and categories for added URLs.
    public var intakeRules = IntakeRules()
    /// How far the open help or details box scrolls, as last rendered (`ListRenderer.overlayScroll`);
    /// nil when unknown, and then only the renderer keeps the offset inside the content.
    public var overlayScroll: OverlayScroll?
    /// The marked tasks that are still in the queue, shown or hidden by the filter, in queue order.
    public var marked: [RowRef] = []
    /// Marks the context was built with whose tasks are no longer in the queue.
    public var vanishedMarks: Set<TaskID> = []
    /// Which line of the screen holds what, for the mouse; nil when unknown.
    public var screen: ScreenLayout?

    public init(
        downloading: [RowRef], completed: [RowRef], visibleRows: Int, maxConcurrent: Int, downloadDirectory: String,
        overlayScroll: OverlayScroll? = nil
    ) {
        self.downloading = RowList(downloading)
        self.completed = RowList(completed)
        self.visibleRows = visibleRows
        self.maxConcurrent = maxConcurrent
        self.downloadDirectory = downloadDirectory
        self.overlayScroll = overlayScroll
    }

    /// The context for a snapshot on a screen with `visibleRows` list rows, its lists filtered and ordered as
    /// `shown` says (by default every row in queue order); `marks` are the marked tasks.
    /// The lists hold the shown lines and the snapshot's rows, and make a row's `RowRef` when it is read (`RowList`):
    /// making a context costs the marked rows, not the queue.
    /// - Parameter refs: every row's `RowRef`, by index in the snapshot (`RowRef.all`), when the caller keeps them: a
    ///   row read is then copied, not made again.
    public init(
        snapshot: QueueSnapshot, visibleRows: Int, downloadDirectory: String, shown: ShownRows? = nil, marks: Set<TaskID> = [],
        refs: [RowRef]? = nil
    ) {
        let shown = shown ?? ListView().shown(in: snapshot)
        let rows = snapshot.rows
        let source = RowList.Source(rows: rows, refs: refs, groups: shown.groups)
        self.init(downloading: [], completed: [], visibleRows: visibleRows, maxConcurrent: snapshot.maxConcurrent, downloadDirectory: downloadDirectory)
        downloading = RowList(lines: shown.downloading, source: source)
        completed = RowList(lines: shown.completed, source: source)
        takeSettings(of: snapshot)
        if !marks.isEmpty {
            marked = rows.indices.lazy.filter { marks.contains(rows[$0].task.id) }.map(source.ref)
            vanishedMarks = marks.subtracting(marked.map(\.id))
        }
    }

    /// Takes the queue-wide settings `snapshot` carries (what a snapshot of the same rows may change).
    public mutating func takeSettings(of snapshot: QueueSnapshot) {
        maxConcurrent = snapshot.maxConcurrent
        overallLimit = snapshot.overallLimit
        schedule = snapshot.schedule
        scheduleSuspended = snapshot.scheduleSuspended
        rowsToCome = snapshot.rowsToCome
    }

    func rows(_ list: UIState.ListKind) -> RowList { list == .downloading ? downloading : completed }

    func row(_ id: TaskID) -> RowRef? {
        downloading.first { $0.id == id } ?? completed.first { $0.id == id }
    }
}
