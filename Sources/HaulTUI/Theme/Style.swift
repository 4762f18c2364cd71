/// The look of one cell, fully resolved: colours plus text attributes.
public struct Style: Sendable, Hashable {
    public var foreground: ThemeColor
    public var background: ThemeColor
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// The terminal's own look: default colours, no attributes.
    public static let plain = Style()
}

/// What a theme file says about one role: every field optional, unset fields come from the parent role.
public struct StylePatch: Sendable, Hashable {
    public var foreground: ThemeColor?
    public var background: ThemeColor?
    public var bold: Bool?
    public var dim: Bool?
    public var reverse: Bool?
    public var underline: Bool?

    public init(
        foreground: ThemeColor? = nil, background: ThemeColor? = nil,
        bold: Bool? = nil, dim: Bool? = nil, reverse: Bool? = nil, underline: Bool? = nil
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    /// `base` with this patch's set fields written over it.
    public func applied(to base: Style) -> Style {
        Style(
            foreground: foreground ?? base.foreground, background: background ?? base.background,
            bold: bold ?? base.bold, dim: dim ?? base.dim, reverse: reverse ?? base.reverse,
            underline: underline ?? base.underline)
    }

    /// This patch with `other`'s set fields written over it (`other` wins).
    public func overlaid(by other: StylePatch) -> StylePatch {
        StylePatch(
            foreground: other.foreground ?? foreground, background: other.background ?? background,
            bold: other.bold ?? bold, dim: other.dim ?? dim, reverse: other.reverse ?? reverse,
            underline: other.underline ?? underline)
    }

    /// The same patch with its colours removed (for NO_COLOR).
    var withoutColors: StylePatch {
        StylePatch(bold: bold, dim: dim, reverse: reverse, underline: underline)
    }
}
