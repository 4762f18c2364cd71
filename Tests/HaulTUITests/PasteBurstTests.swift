import HaulTUI
import Testing

@Suite struct PasteBurstTests {
    @Test func severalKeysAtOnceAreAPasteWhoseLineBreaksSeparateURLs() {
        let keys: [KeyPress] = [.character("a"), .enter, .character("p"), .tab, .paste("q\n"), .up, .character("d")]
        #expect(PasteBurst.isPaste(keys))
        #expect(PasteBurst.text(of: keys) == "a\np\tq\nd")
        #expect(!PasteBurst.isPaste([.character("x"), .enter]), "typing a last key and Enter stays typing")
    }

    @Test func thePastedTextInThePromptIsOneURLALine() throws {
        var field = PromptField()
        field.insert(PasteBurst.text(of: [.character("a"), .enter, .character("b"), .enter]))
        #expect(field.text == "a b ")
    }
}
