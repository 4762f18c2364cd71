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
        let cookies = try CookieFile.parse(Self.file, path: "/c.txt")
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
    func aBadLineIsNamed(text: String, line: Int) {
        #expect(throws: IntakeError.malformedCookiesFile("/c.txt", line: line)) { try CookieFile.parse(text, path: "/c.txt") }
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: IntakeError.unreadableFile(kind: "cookies file", "/nonexistent/cookies.txt")) {
            try CookieFile.read("/nonexistent/cookies.txt")
        }
    }

    @Test func onlyWhatServersSetOrChangedIsKept() throws {
        let seed = try CookieFile.parse("example.org\tTRUE\t/\tFALSE\t0\tsession\tabc\n", path: "/c")
        // libcurl writes the same cookie with a leading dot; a server set `srv` and changed nothing else.
        let jar = try CookieFile.parse(
            ".example.org\tTRUE\t/\tFALSE\t0\tsession\tabc\n127.0.0.1\tFALSE\t/\tFALSE\t0\tsrv\t1\n", path: "/jar")
        #expect(CookieFile.changes(in: jar, since: seed).map(\.name) == ["srv"])
        let renewed = try CookieFile.parse(".example.org\tTRUE\t/\tFALSE\t0\tsession\tnew\n", path: "/jar")
        #expect(CookieFile.changes(in: renewed, since: seed).map(\.value) == ["new"])
    }
}
