import Foundation
import Testing
@testable import HaulTUI

/// Bundled themes, the built-in fallback, theme files with mistakes, and the NAME/PATH rule.
@Suite struct ThemeTests {
    /// The repository's `themes/` folder, found from this file's path.
    static let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("themes").path
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("themes").path
    static let valid = fixtures + "/valid"
    static let invalid = fixtures + "/invalid"

    static func load(_ nameOrPath: String?, noColor: Bool = false, user: String? = nil) throws -> (Theme, warnings: [String]) {
        try ThemeLoader.load(nameOrPath: nameOrPath, noColor: noColor, userDirectory: user, bundledDirectory: bundled)
    }

    static var bundledNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: bundled)) ?? [])
            .filter { $0.hasSuffix(".toml") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func theRepositoryShipsTheFourThemes() {
        #expect(Self.bundledNames == ["amber", "default", "light", "monochrome"])
    }

    @Test(arguments: ["amber", "default", "light", "monochrome"])
    func eachBundledThemeLoadsWithoutWarnings(name: String) throws {
        let (theme, warnings) = try Self.load(name)
        #expect(warnings.isEmpty)
        #expect(theme.name == name)
        #expect(!theme.patches.isEmpty)
    }

    @Test(arguments: BuiltinTheme.names)
    func theBuiltInThemesMatchTheBundledFiles(name: String) throws {
        let text = try String(contentsOfFile: Self.bundled + "/\(name).toml", encoding: .utf8)
        let (file, warnings) = try ThemeFile.parse(text, source: name)
        #expect(warnings.isEmpty)
        #expect(BuiltinTheme.theme(named: name) == Theme(name: name, patches: file.patches))
        // Word for word, apart from the file's final newline.
        #expect(BuiltinTheme.source(named: name).map { $0 + "\n" } == text)
    }

    @Test func withNoThemesFolderTheBuiltInDefaultIsUsed() throws {
        let (theme, warnings) = try ThemeLoader.load(nameOrPath: nil, noColor: false, userDirectory: nil, bundledDirectory: nil)
        #expect(warnings.isEmpty)
        #expect(theme == BuiltinTheme.default)
        #expect(theme.style(for: .barDone) == Style(foreground: .indexed(2)))
    }

    @Test func noColorGivesMonochromeWithoutAnyColour() throws {
        // Even a user's monochrome.toml with colours in it is stripped.
        let user = try TemporaryThemes(["monochrome.toml": "[styles]\n\"bar.done\" = { fg = \"red\", bold = true }\n"])
        let (theme, warnings) = try Self.load("amber", noColor: true, user: user.path)
        #expect(warnings.isEmpty)
        for role in ColorRole.allCases {
            for selected in [false, true] {
                let style = theme.style(for: role, selected: selected)
                #expect(style.foreground == .terminalDefault && style.background == .terminalDefault, "\(role)")
            }
        }
        #expect(theme.style(for: .barDone).bold)
        let (plain, _) = try ThemeLoader.load(nameOrPath: nil, noColor: true, userDirectory: nil, bundledDirectory: nil)
        #expect(plain.style(for: .rowSelected, selected: true).reverse)
        #expect(plain.style(for: .barRemaining).dim, "bars stay readable: the rest of the bar is dim")
    }

    @Test func rolesFallBackToTheirParentFieldByField() throws {
        let (theme, warnings) = try Self.load(Self.valid + "/nested.toml")
        #expect(warnings.isEmpty)
        #expect(theme.name == "nested")
        #expect(theme.style(for: .barDone) == Style(foreground: .rgb(0, 255, 135), bold: true))
        #expect(theme.style(for: .stateFailed) == Style(foreground: .indexed(9), underline: true))
        #expect(theme.style(for: .stateRunning) == Style(underline: true))
        #expect(theme.style(for: .dialogBorder) == Style(foreground: .indexed(244), dim: true))
        #expect(theme.style(for: .dialogTitle) == Style(foreground: .indexed(7), reverse: true))
        #expect(theme.style(for: .barRemaining) == .plain)
        #expect(theme.style(for: .columnSpeed) == Style(foreground: .indexed(6)))
    }

    @Test func theSelectionChangesOnlyWhatRowSelectedSets() throws {
        let (theme, _) = try Self.load(Self.valid + "/nested.toml")
        #expect(theme.style(for: .barDone, selected: true) == Style(foreground: .rgb(0, 255, 135), background: .indexed(236), bold: true))
    }

    @Test func inheritsLaysTheFileOverItsParent() throws {
        let (theme, warnings) = try Self.load(Self.valid + "/child.toml")
        #expect(warnings.isEmpty)
        #expect(theme.name == "child")
        #expect(theme.style(for: .barDone) == Style(foreground: .indexed(5)))
        #expect(theme.style(for: .stateFailed) == BuiltinTheme.default.style(for: .stateFailed))
    }

    @Test func aUserThemeCanExtendTheBundledThemeOfTheSameName() throws {
        let user = try TemporaryThemes(["default.toml": "inherits = \"default\"\n[styles]\n\"bar.done\" = { fg = \"blue\" }\n"])
        let (theme, warnings) = try Self.load(nil, user: user.path)
        #expect(warnings.isEmpty)
        #expect(theme.style(for: .barDone) == Style(foreground: .indexed(4)))
        #expect(theme.style(for: .stateFailed) == BuiltinTheme.default.style(for: .stateFailed))
    }

    @Test func userThemesComeBeforeBundledOnes() throws {
        let user = try TemporaryThemes(["light.toml": "name = \"my light\"\n"])
        #expect(try Self.load("light", user: user.path).0.name == "my light")
    }

    // MARK: Broken files: one fixture each, with its message

    @Test(arguments: [
        ("unknown-role", "styles.bar.dne: unknown role 'bar.dne' (themes/README.md lists the roles)"),
        ("bad-colour", "styles.bar.done.bg: 300 is not a colour (use a name like red or bright-blue, default, 0–255, or #rrggbb)"),
        ("bad-attribute", "styles.state.failed.bold: must be true or false, not \"yes\""),
        ("unknown-key", "colour: unknown key (expected one of name, description, inherits, styles)"),
        ("styles-not-a-table", "styles: must be a table of roles, like [styles]"),
        ("inherits-refused", "inherits: '../default' is refused (a NAME, without '/' or '..'); ignoring it"),
        ("inherits-missing", "inherits: no theme named 'no-such-theme'; ignoring it"),
    ])
    func aBrokenEntryIsAWarningAndTheRestApplies(fixture: String, message: String) throws {
        let path = Self.invalid + "/\(fixture).toml"
        let (_, warnings) = try Self.load(path)
        #expect(warnings.contains { $0.hasPrefix(path + ": ") && $0.hasSuffix(message) }, "\(warnings)")
    }

    @Test func aBadColourIsNamedWithItsValue() throws {
        let (theme, warnings) = try Self.load(Self.invalid + "/bad-colour.toml")
        #expect(warnings.count == 2)
        #expect(warnings.contains { $0.hasSuffix("styles.bar.done.fg: 'purplish' is not a colour (use a name like red or bright-blue, default, 0–255, or #rrggbb)") })
        #expect(theme.style(for: .barDone) == .plain)
    }

    @Test func theGoodEntriesOfABrokenFileStillApply() throws {
        let (theme, _) = try Self.load(Self.invalid + "/unknown-role.toml")
        #expect(theme.style(for: .barDone) == Style(foreground: .indexed(2)))
    }

    @Test func anInheritsCycleIsCutWithAWarning() throws {
        let (_, warnings) = try ThemeLoader.load(nameOrPath: "cycle-a", noColor: false, userDirectory: Self.invalid, bundledDirectory: nil)
        #expect(warnings == ["\(Self.invalid)/cycle-b.toml: inherits: cycle \(Self.invalid)/cycle-a.toml → \(Self.invalid)/cycle-b.toml → cycle-a; ignoring it"])
    }

    @Test func aBrokenParentIsDroppedWithAWarning() throws {
        let (theme, warnings) = try ThemeLoader.load(nameOrPath: "inherits-broken", noColor: false, userDirectory: Self.invalid, bundledDirectory: nil)
        #expect(warnings.count == 1)
        #expect(warnings[0].hasPrefix("\(Self.invalid)/inherits-broken.toml: inherits: \(Self.invalid)/syntax-error.toml:1:"))
        #expect(theme.style(for: .barDone) == Style(foreground: .indexed(2)))
    }

    // MARK: Errors that stop the run

    @Test func aSyntaxErrorInTheChosenFileIsAnError() {
        let path = Self.invalid + "/syntax-error.toml"
        #expect {
            try Self.load(path)
        } throws: { error in
            guard case let .syntax(source, line, _, _)? = error as? ThemeError else { return false }
            return source == path && line == 1
        }
    }

    @Test(arguments: ["..", "../x", "a..b", ".hidden", "théme", "", "a b", "x;rm"])
    func namesThatCouldLeaveTheThemeDirectoriesAreRefused(name: String) {
        if name.contains("/") {
            // With a slash it is a PATH, which must exist.
            #expect(throws: ThemeError.unreadable(path: name, reason: "no such file")) { try Self.load(name) }
        } else {
            #expect(throws: ThemeError.refusedName(name)) { try Self.load(name) }
        }
    }

    @Test func anUnknownNameIsAnErrorThatSaysWhereItLooked() {
        #expect(throws: ThemeError.notFound(name: "nope", tried: [Self.bundled + "/nope.toml"])) { try Self.load("nope") }
        // Every file tried is named, the user directory first.
        #expect(throws: ThemeError.notFound(name: "nope", tried: ["/u/themes/nope.toml", Self.bundled + "/nope.toml"])) {
            try Self.load("nope", user: "/u/themes/")
        }
        let message = ThemeError.notFound(name: "nope", tried: ["/a/nope.toml", "/b/nope.toml"]).description
        #expect(message == "no theme named 'nope': tried /a/nope.toml, /b/nope.toml, then the built-in themes (default, monochrome)")
        #expect(ThemeError.notFound(name: "x", tried: []).description.contains("tried no theme directory"))
    }

    @Test func aPathIsAnythingWithASlashOrATomlSuffix() throws {
        #expect(try ThemeReference("./x") == .path("./x"))
        #expect(try ThemeReference("x.toml") == .path("x.toml"))
        #expect(try ThemeReference("solarized-dark_2") == .name("solarized-dark_2"))
    }

    // MARK: Colours and roles

    @Test(arguments: [
        ("default", ThemeColor.terminalDefault), ("red", .indexed(1)), ("Bright-Cyan", .indexed(14)), ("grey", .indexed(8)),
        ("#FF8000", .rgb(255, 128, 0)), ("42", .indexed(42)),
    ])
    func colourNames(text: String, color: ThemeColor) {
        #expect(ThemeColor(text: text) == color)
    }

    @Test(arguments: ["purple", "#fff", "#gg0000", "256", "-1", "bright-", ""])
    func notColours(text: String) {
        #expect(ThemeColor(text: text) == nil)
    }

    @Test func everyRoleHasAParentChainToText() {
        for role in ColorRole.allCases {
            #expect(role.lineage.first == .text)
            #expect(role.lineage.last == role)
        }
        #expect(ColorRole.barDone.parent == .bar)
        #expect(ColorRole.rowSelected.parent == .row)
    }

    @Test func theThemesReadmeListsEveryRole() throws {
        let readme = try String(contentsOfFile: Self.bundled + "/README.md", encoding: .utf8)
        for role in ColorRole.allCases { #expect(readme.contains("| `\(role.rawValue)` |"), "\(role.rawValue)") }
    }
}

/// A temporary directory of theme files, removed when the value goes away.
final class TemporaryThemes {
    let path: String

    init(_ files: [String: String]) throws {
        path = NSTemporaryDirectory() + "haul-themes-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Found by fuzz-theme: toml++ inside TOMLKit asserts (ending the process) on a table name that starts with a
/// non-ASCII character; such a theme is a syntax error instead.
@Suite struct ThemeTableNameTests {
    @Test(arguments: ["[ü]\n", "name = \"x\"\n  [[ é ]]\n", "[=]\n", "[ .a]\n", "[\na ].\n", "[[[a]]]\n", "[\u{EB4}]\n", "\u{FEFF}[= 1]\n"])
    func aTableNameTomlPlusPlusWouldAssertOnIsASyntaxError(text: String) {
        #expect(throws: ThemeError.self) { try ThemeFile.parse(text, source: "t.toml") }
    }

    @Test func nonASCIIElsewhereIsFine() throws {
        _ = try ThemeFile.parse("# ▶ ⏸\ndescription = \"Solarized — dark\"\n[styles]\n", source: "t.toml")
    }
}

/// Found by fuzz-theme: toml++ asserts on a `}` where an array expects a value (`a = [ }`); a theme with one is a
/// syntax error naming its line, while braces in strings and comments and valid nesting stay fine.
@Suite struct ThemeBraceInArrayTests {
    @Test(arguments: [("a = [ }\n", 1), ("name = \"x\"\na = [1,\n }\n", 3), ("a = [ { b = 1 }, }\n", 1), ("a = [ # c\n}\n", 2)])
    func aBraceWhereAnArrayExpectsAValueIsASyntaxError(text: String, line: Int) {
        do {
            _ = try ThemeFile.parse(text, source: "t.toml")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("t.toml:\(line)"), "\(error)")
        }
    }

    @Test func bracesInStringsCommentsAndTablesAreFine() throws {
        _ = try ThemeFile.parse(
            "description = \"a } b [ c\" # } [\nname = '}'\n[styles]\n\"bar.done\" = { fg = \"red\" }\n", source: "t.toml")
        _ = try ThemeFile.parse("description = \"\"\"\n}]\n\"\"\"\n", source: "t.toml")
    }
}
