import Foundation
import HaulCore
import Testing

/// Netscape cookies.txt as exporters and curl write it, and which cookies of a jar a task keeps.
struct CookieFileTests {
    static let file = """
        # Netscape HTTP Cookie File
        # https://curl.se/docs/http-cookies.html

        .example.org\tTRUE\t/\tFALSE\t0\tsession\tabc
        #HttpOnly_example.org\tFALSE\t/dl\tTRUE\t1893456000\ttoken\tx=y
        example.org\tFALSE\t/\tFALSE\t0\tempty\r
        example.org\tFALSE\t/\tFALSE\t0\tnovalue

        """

    @Test func cookieLinesCommentsAndHttpOnlyAreRead() throws {
        let contents = try CookieFile.parse(Self.file, path: "/c.txt")
        #expect(contents.skippedLines.isEmpty && contents.warnings.isEmpty)
        let cookies = contents.cookies
        #expect(cookies.map(\.name) == ["session", "token", "empty", "novalue"])
        #expect(cookies[0].includeSubdomains && !cookies[0].secure && cookies[0].value == "abc")
        #expect(cookies[1].domain == "#HttpOnly_example.org" && cookies[1].secure && cookies[1].value == "x=y")
        #expect(cookies[1].expires == 1_893_456_000 && cookies[1].path == "/dl")
        #expect(cookies[2].value == "" && cookies[3].value == "")
        #expect(cookies[0].line == ".example.org\tTRUE\t/\tFALSE\t0\tsession\tabc")
    }

    @Test(arguments: [
        ("a\tb\n", 1), ("# c\nexample.org TRUE / FALSE 0 n v\n", 2), ("x\tMAYBE\t/\tFALSE\t0\tn\tv", 1),
        ("x\tTRUE\t/\tFALSE\tsoon\tn\tv", 1), ("\n\nx\tTRUE\t/\tFALSE\t0\t\tv", 3),
    ])
    func aBadLineIsSkippedWithAWarningNamingIt(text: String, line: Int) throws {
        let good = "example.org\tFALSE\t/\tFALSE\t0\tkept\t1"
        let contents = try CookieFile.parse(good + "\n" + text + "\n" + good.replacingOccurrences(of: "kept", with: "after"), path: "/c.txt")
        #expect(contents.cookies.map(\.name) == ["kept", "after"], "the lines around it are read")
        #expect(contents.skippedLines == [line + 1])
        #expect(contents.warnings == [
            "line \(line + 1) of cookies file '/c.txt' is not in the Netscape cookies.txt format (7 TAB-separated fields: domain, "
                + "subdomains, path, secure, expiry, name, value); the line was skipped",
        ])
    }

    @Test(arguments: [("1735000000.5", Int64(1_735_000_000)), ("1735000000.", 1_735_000_000), (" 0.999 ", 0), ("-1.5", -1)])
    func aFractionalExpiryIsTruncated(expiry: String, seconds: Int64) throws {
        let contents = try CookieFile.parse("example.org\tFALSE\t/\tFALSE\t\(expiry)\tn\tv\n", path: "/c.txt")
        #expect(contents.skippedLines.isEmpty)
        #expect(contents.cookies.map(\.expires) == [seconds])
    }

    @Test(arguments: ["1.5.5", "1.x", ".5", "1e9", "nan"])
    func anExpiryThatIsNoNumberSkipsTheLine(expiry: String) throws {
        let text = "example.org\tFALSE\t/\tFALSE\t\(expiry)\tn\tv\nexample.org\tFALSE\t/\tFALSE\t0\tm\tw\n"
        #expect(try CookieFile.parse(text, path: "/c.txt").skippedLines == [1])
    }

    /// A file without one cookie line is in another format (space-separated, say): it is refused, its first
    /// bad line named.
    @Test(arguments: [
        ("a\tb\n", 1), ("# c\nexample.org TRUE / FALSE 0 n v\n", 2), ("x\tMAYBE\t/\tFALSE\t0\tn\tv", 1),
        ("x\tTRUE\t/\tFALSE\tsoon\tn\tv", 1), ("\n\nx\tTRUE\t/\tFALSE\t0\t\tv\njunk", 3),
    ])
    func aFileWithoutACookieLineIsRefusedNamingTheFirstBadLine(text: String, line: Int) {
        #expect(throws: IntakeError.malformedCookiesFile("/c.txt", line: line)) { try CookieFile.parse(text, path: "/c.txt") }
    }

    @Test func aFileWithAJunkLineIsReadWithItsWarning() throws {
        let path = FileManager.default.temporaryDirectory.path + "/haul-cookies-\(UInt64.random(in: 0...UInt64.max)).txt"
        try "junk\nexample.org\tFALSE\t/\tFALSE\t1735000000.5\tn\tv\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = try CookieFile.read(path)
        #expect(contents.cookies.map(\.name) == ["n"] && contents.skippedLines == [1] && contents.path == path)
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: IntakeError.unreadableFile(kind: "cookies file", "/nonexistent/cookies.txt")) {
            try CookieFile.read("/nonexistent/cookies.txt")
        }
    }

    @Test func onlyWhatServersSetOrChangedIsKept() throws {
        let seed = try CookieFile.parse("example.org\tTRUE\t/\tFALSE\t0\tsession\tabc\n", path: "/c").cookies
        // libcurl writes the same cookie with a leading dot; a server set `srv` and changed nothing else.
        let jar = try CookieFile.parse(
            ".example.org\tTRUE\t/\tFALSE\t0\tsession\tabc\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsrv\t1\n", path: "/jar").cookies
        #expect(CookieFile.changes(in: jar, since: seed).map(\.name) == ["srv"])
        let renewed = try CookieFile.parse(".example.org\tTRUE\t/\tFALSE\t0\tsession\tnew\n", path: "/jar").cookies
        #expect(CookieFile.changes(in: renewed, since: seed).map(\.value) == ["new"])
    }
}
