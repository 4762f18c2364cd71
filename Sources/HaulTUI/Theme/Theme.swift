/// A complete theme: a style for every role, resolved once from the theme file's patches.
///
/// Resolution walks the role tree (`text` → `bar` → `bar.done`), laying each role's patch over its
/// parent's resolved style. The selected row lays the patch of `row.selected` (its own fields only,
/// not inherited ones) over each cell's style, so a selection changes only what the theme sets for it.
public struct Theme: Sendable, Equatable {
    /// Where the theme came from (a name or a path), for messages.
    public var name: String
    /// The merged patches of the theme file and the files it inherits from, by role.
    public private(set) var patches: [ColorRole: StylePatch]
    private var resolved: [ColorRole: Style]
    private var selectedResolved: [ColorRole: Style]

    public init(name: String, patches: [ColorRole: StylePatch]) {
        self.name = name
        self.patches = patches
        var resolved: [ColorRole: Style] = [:]
        for role in ColorRole.allCases {
            var style = Style.plain
            for step in role.lineage { style = (patches[step] ?? StylePatch()).applied(to: style) }
            resolved[role] = style
        }
        let selection = patches[.rowSelected] ?? StylePatch()
        var selectedResolved: [ColorRole: Style] = [:]
        for role in ColorRole.allCases { selectedResolved[role] = selection.applied(to: resolved[role] ?? .plain) }
        self.resolved = resolved
        self.selectedResolved = selectedResolved
    }

    /// The style of a cell with `role`, inside the selected row when `selected`.
    public func style(for role: ColorRole, selected: Bool = false) -> Style {
        (selected ? selectedResolved[role] : resolved[role]) ?? .plain
    }

    /// Every style the theme can produce, for allocating colour pairs up front.
    public var allStyles: Set<Style> { Set(resolved.values).union(selectedResolved.values) }

    /// The same theme with every colour removed: attributes only (NO_COLOR, `--no-color`).
    public func withoutColors() -> Theme {
        Theme(name: name, patches: patches.mapValues(\.withoutColors))
    }

    public static func == (lhs: Theme, rhs: Theme) -> Bool { lhs.name == rhs.name && lhs.patches == rhs.patches }
}
