import Testing
@testable import HaulCore

@Suite struct SafeFileNameTests {
    @Test func stripsDirectoriesAndTraversal() {
        #expect(SafeFileName.sanitize("../../etc/passwd") == "passwd")
        #expect(SafeFileName.sanitize("..\\..\\boot.ini") == "boot.ini")
        #expect(SafeFileName.sanitize("..") == nil)
        #expect(SafeFileName.sanitize("/") == nil)
    }

    @Test func removesControlAndEscapeCharacters() {
        #expect(SafeFileName.sanitize("a\u{1B}[31mred\u{07}.txt") == "a[31mred.txt")
        #expect(SafeFileName.sanitize("evil\u{202E}gnp.exe") == "evilgnp.exe")
        #expect(SafeFileName.sanitize(".hidden") == "hidden")
        #expect(SafeFileName.sanitize("-rf") == "rf")
    }

    @Test func keepsUnicodeAndCapsLengthKeepingExtension() {
        #expect(SafeFileName.sanitize("電影.第01集.mp4") == "電影.第01集.mp4")
        let long = String(repeating: "長", count: 300) + ".mkv"
        let capped = SafeFileName.sanitize(long)!
        #expect(capped.utf8.count <= SafeFileName.maxBytes)
        #expect(capped.hasSuffix(".mkv"))
    }

    @Test func decodesURLSegment() {
        #expect(SafeFileName.fromURL("http://h/a/%E9%9B%BB%E5%BD%B1.mp4?x=1") == "電影.mp4")
        #expect(SafeFileName.fromURL("http://h/") == nil)
        #expect(SafeFileName.fromURL("http://h/a/..%2F..%2Fx") == "x")
    }

    /// The last segment found byte by byte in an ASCII path agrees with the one a split by characters finds.
    @Test func lastSegmentOfAnASCIIPathAsASplitFindsIt() {
        #expect(SafeFileName.fromURL("http://h/a/b.bin") == "b.bin")
        #expect(SafeFileName.fromURL("http://h//a//b.bin//#top") == "b.bin")
        #expect(SafeFileName.fromURL("http://h/file-7.bin?x=/y") == "file-7.bin")
        #expect(SafeFileName.fromURL("http://h///") == nil)
        #expect(SafeFileName.fromURL("http://h") == nil)
        #expect(SafeFileName.fromURL("http://h/d/電影/") == "電影")
    }

    @Test func aURLWithoutANameFallsBackToIndexHTML() {
        #expect(SafeFileName.fallback(for: "http://127.0.0.1:8080/") == "index.html")
        #expect(SafeFileName.fallback(for: "https://example.com") == "index.html")
    }

    @Test func numbersAlternatives() {
        #expect(SafeFileName.numbered("movie.mp4", 1) == "movie (1).mp4")
        #expect(SafeFileName.numbered("README", 2) == "README (2)")
    }
}

/// Found by fuzz-content-disposition: a long name whose cut left what a second pass trims again.
@Suite struct SafeFileNameIdempotenceTests {
    @Test(arguments: [
        String(repeating: "é", count: 99) + " .." + String(repeating: "x", count: 20),
        String(repeating: "ÿ", count: 150) + ".tar",
        "." + String(repeating: "a", count: 300) + " .bin",
        String(repeating: "ÿ", count: 99) + " " + String(repeating: "b", count: 30) + ".x",
        // A space before a combining mark is one Character: trimmed scalar by scalar.
        "../. \u{659}\u{FFFD}lnsswd",
    ])
    func sanitisingASanitisedNameChangesNothing(raw: String) throws {
        let once = try #require(SafeFileName.sanitize(raw))
        #expect(SafeFileName.sanitize(once) == once)
        #expect(once.utf8.count <= SafeFileName.maxBytes)
    }
}
