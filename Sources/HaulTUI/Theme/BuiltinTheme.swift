/// The themes compiled into haul, so it runs the same with no themes folder. Their text is the same
/// TOML as `themes/default.toml` and `themes/monochrome.toml`; `BuiltinThemeTests` keeps them equal.
public enum BuiltinTheme {
    /// Names that resolve even when no theme directory has them.
    public static let names = ["default", "monochrome"]

    /// The TOML text of a built-in theme, or nil for other names.
    public static func source(named name: String) -> String? {
        switch name {
        case "default": return defaultSource
        case "monochrome": return monochromeSource
        default: return nil
        }
    }

    /// The default theme, resolved (it has no `inherits` and no bad entries: a test checks).
    public static var `default`: Theme { theme(named: "default") }

    /// The monochrome theme, resolved.
    public static var monochrome: Theme { theme(named: "monochrome") }

    static func theme(named name: String) -> Theme {
        guard let source = source(named: name), let (file, _) = try? ThemeFile.parse(source, source: "built-in \(name)") else {
            return Theme(name: name, patches: [:])
        }
        return Theme(name: name, patches: file.patches)
    }

    static let defaultSource = #"""
# haul's default theme, for dark terminal backgrounds.
# It is also compiled into haul (BuiltinTheme.swift), so haul looks the same with no themes folder;
# a test keeps the two equal. Roles and colour syntax: README.md in this folder.
name = "default"
description = "Dark backgrounds: green progress, cyan figures, red failures."

[styles]
"header.title" = { fg = "bright-white", bold = true }
"header.speed" = { fg = "cyan", bold = true }
"header.disk" = { fg = "bright-black" }
rule = { fg = "bright-black" }
tab = { fg = "bright-black" }
"tab.active" = { fg = "bright-white", bold = true }
"row.selected" = { bg = 237 }
"row.marker" = { fg = "cyan", bold = true }
"row.error" = { fg = "red" }
"row.hint" = { fg = "yellow" }
"state.running" = { fg = "green", bold = true }
"state.waiting" = { fg = "bright-black" }
"state.retrying" = { fg = "yellow" }
"state.paused" = { fg = "yellow" }
"state.failed" = { fg = "red", bold = true }
"state.completed" = { fg = "blue", bold = true }
"bar.done" = { fg = "green" }
"bar.remaining" = { fg = "bright-black" }
"bar.activity" = { fg = "cyan" }
"column.speed" = { fg = "cyan" }
"column.eta" = { fg = "bright-black" }
status = { fg = "bright-black" }
message = { fg = "green" }
"message.error" = { fg = "red", bold = true }
"banner.warning" = { fg = "black", bg = "yellow", bold = true }
"prompt.label" = { fg = "cyan", bold = true }
"prompt.cursor" = { reverse = true }
"footer.key" = { fg = "cyan", bold = true }
"footer.label" = { fg = "bright-black" }
"dialog.border" = { fg = "cyan" }
"dialog.title" = { fg = "bright-white", bold = true }
"dialog.key" = { fg = "cyan", bold = true }
"dialog.label" = { fg = "bright-black" }
"dialog.warning" = { fg = "red", bold = true }
empty = { fg = "bright-black" }
"""#

    static let monochromeSource = #"""
# No colour at all: what NO_COLOR and --no-color give. Everything stays readable through glyphs
# (▶ ⏸ · ✗ ✓, █/░ bars) and text attributes only. Also compiled into haul; a test keeps them equal.
name = "monochrome"
description = "Attributes only: bold, dim, reverse, underline."

[styles]
"header.title" = { bold = true }
"header.speed" = { bold = true }
"tab.active" = { bold = true, underline = true }
"row.selected" = { reverse = true }
"row.marker" = { bold = true }
"row.error" = { bold = true }
"row.hint" = { underline = true }
"state.running" = { bold = true }
"state.failed" = { bold = true }
"bar.remaining" = { dim = true }
status = { dim = true }
"message.error" = { bold = true }
"banner.warning" = { reverse = true, bold = true }
"prompt.label" = { bold = true }
"prompt.cursor" = { reverse = true }
"footer.key" = { bold = true }
"dialog.title" = { bold = true }
"dialog.key" = { bold = true }
"dialog.warning" = { bold = true, underline = true }
empty = { dim = true }
"""#
}
