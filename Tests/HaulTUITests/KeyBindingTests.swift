import Testing
@testable import HaulTUI

/// The one key table: no key bound twice, every action reachable, footer and help generated from it.
@Suite struct KeyBindingTests {
    @Test func noKeyIsBoundTwiceInOneScope() {
        for scope in KeyBinding.Scope.allCases {
            let keys = KeyBinding.table.filter { $0.scopes.contains(scope) }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(scope)")
        }
    }

    @Test func everyActionHasAKey() {
        for action in Action.allCases {
            #expect(KeyBinding.Scope.allCases.contains { KeyBinding.binding(for: action, in: $0) != nil }, "\(action)")
        }
    }

    @Test func helpAndDetailsScrollWithTheirOwnKeys() {
        let help: [(KeyPress, Action)] = [
            (.up, .scrollUp), (.character("k"), .scrollUp), (.down, .scrollDown), (.character("j"), .scrollDown),
            (.pageUp, .scrollPageUp), (.pageDown, .scrollPageDown), (.character(" "), .scrollPageDown),
            (.home, .scrollTop), (.end, .scrollBottom), (.escape, .closeOverlay),
        ]
        for (key, action) in help { #expect(KeyBinding.action(for: key, in: .help) == action, "help \(key.label)") }
        let details: [(KeyPress, Action)] = [
            (.up, .selectPrevious), (.down, .selectNext), (.pageUp, .scrollPageUp), (.pageDown, .scrollPageDown),
            (.home, .scrollTop), (.end, .scrollBottom), (.escape, .closeOverlay), (.enter, .closeOverlay),
        ]
        for (key, action) in details { #expect(KeyBinding.action(for: key, in: .details) == action, "details \(key.label)") }
        #expect(KeyBinding.action(for: .character("x"), in: .details) == nil, "list actions do not work under details")
    }

    @Test func theIssueBaselineKeysAreBound() {
        let expected: [(KeyPress, Action)] = [
            (.up, .selectPrevious), (.character("k"), .selectPrevious), (.down, .selectNext), (.character("j"), .selectNext),
            (.pageUp, .pageUp), (.pageDown, .pageDown), (.home, .selectFirst), (.end, .selectLast),
            (.character(" "), .toggleSelected), (.character("p"), .toggleSelected), (.character("P"), .pauseAll),
            (.character("S"), .startAll), (.character("a"), .add), (.character("x"), .remove), (.delete, .remove),
            (.character("J"), .moveDown), (.character("K"), .moveUp), (.character("<"), .decreaseConcurrency),
            (.character(">"), .increaseConcurrency), (.enter, .showDetails), (.tab, .switchList),
            (.character("?"), .toggleHelp), (.character("q"), .quit),
        ]
        for (key, action) in expected { #expect(KeyBinding.action(for: key) == action, "\(key.label)") }
    }

    @Test func theFooterComesFromTheTable() {
        let footer = KeyBinding.footerItems(in: .list).map { "\($0.keys) \($0.label)" }
        #expect(footer == [
            "space pause/resume", "/ filter", "o sort", "a add", "x remove", "Enter details", "←/→ group", "m mark", "J/K move", "</> running",
            "[/] cap", "Tab lists", "? help", "q quit",
        ])
        #expect(KeyBinding.footerItems(in: .list).filter(\.essential).map(\.label) == ["help", "quit"])
        #expect(KeyBinding.footerItems(in: .help).map { "\($0.keys) \($0.label)" } == ["↑/↓ scroll", "PgUp/PgDn page", "Esc close"])
        #expect(KeyBinding.footerItems(in: .details).map { "\($0.keys) \($0.label)" } == ["↑/↓ task", "PgUp/PgDn page", "Esc close"])
    }

    @Test func theRetryHintNamesALetterKey() {
        #expect(KeyBinding.hintKey(for: .toggleSelected) == "p")
        #expect(KeyBinding.hintKey(for: .remove) == "x")
        #expect(KeyBinding.hintKey(for: .showDetails) == "Enter")
    }

    @Test func keyLabels() {
        #expect(KeyPress.character(" ").label == "space")
        #expect(KeyPress.control("u").label == "^U")
        #expect(KeyPress.function(1).label == "F1")
        #expect(KeyPress.pageDown.label == "PgDn")
    }
}
