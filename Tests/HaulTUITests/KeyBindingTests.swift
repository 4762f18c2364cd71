import Testing
@testable import HaulTUI

/// The one key table: no key bound twice, every action reachable, footer and help generated from it.
@Suite struct KeyBindingTests {
    @Test func noKeyIsBoundTwice() {
        let keys = KeyBinding.table.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test func everyActionHasAKey() {
        for action in Action.allCases { #expect(KeyBinding.binding(for: action) != nil, "\(action)") }
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
        let footer = KeyBinding.footerItems.map { "\($0.keys) \($0.label)" }
        #expect(footer == [
            "space pause/resume", "a add", "x remove", "Enter details", "J/K move", "</> limit", "Tab lists", "? help", "q quit",
        ])
        #expect(KeyBinding.footerItems.filter(\.essential).map(\.label) == ["help", "quit"])
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
