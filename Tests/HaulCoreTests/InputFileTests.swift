import Testing
@testable import HaulCore

@Suite struct InputFileTests {
    static let hex = String(repeating: "ab", count: 32)
    static let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")

    static func parse(_ text: String, headers: [String] = [], checksum: String? = nil) throws(InputFileError) -> (tasks: [NewTask], warnings: [String]) {
        try InputFile.parse(Array(text.utf8), intake: intake, headers: headers, checksum: checksum)
    }

    static func task(_ url: String, _ name: String? = nil, directory: String = "/nonexistent-haul-downloads", checksum: Checksum? = nil, headers: [String] = []) -> NewTask {
        NewTask(url: url, directory: directory, requestedName: name, checksum: checksum, headers: headers)
    }

    @Test func urlsWithOptionsCommentsAndBlankLines() throws {
        let text = """
            # nightly mirrors
            https://example.org/ubuntu.iso
              out=ubuntu-24.04.iso
            \tdir=/srv/isos
              checksum=sha-256=\(Self.hex.uppercased())
              header=Authorization: Bearer abc
              header=X-Trace: 1

            # a second file, no options
            http://example.org/notes.pdf
                # an indented comment
            """
        let (tasks, warnings) = try Self.parse(text)
        #expect(warnings.isEmpty)
        #expect(tasks == [
            Self.task(
                "https://example.org/ubuntu.iso", "ubuntu-24.04.iso", directory: "/srv/isos",
                checksum: Checksum(algorithm: .sha256, hex: Self.hex),
                headers: ["Authorization: Bearer abc", "X-Trace: 1"]),
            Self.task("http://example.org/notes.pdf"),
        ])
    }

    @Test func commandLineHeadersComeFirstAndItsChecksumFillsIn() throws {
        let other = String(repeating: "cd", count: 32)
        let text = "https://example.org/a\n  header=X-B: 2\nhttps://example.org/b\n  checksum=sha-256=\(other)\n"
        let (tasks, _) = try Self.parse(text, headers: ["X-A: 1"], checksum: "sha-256=\(Self.hex)")
        #expect(tasks.map(\.headers) == [["X-A: 1", "X-B: 2"], ["X-A: 1"]])
        #expect(tasks.map(\.checksum?.hex) == [Self.hex, other])
    }

    @Test func userAgentAndRefererAreAria2sNamesForTwoHeaders() throws {
        let parsed = try Self.parse("""
            https://example.org/a.iso
              user-agent=Mozilla/5.0 (X11)
              referer=https://example.org/page
            """, headers: ["X-A: 1"])
        #expect(parsed.tasks == [Self.task("https://example.org/a.iso", headers: [
            "X-A: 1", "User-Agent: Mozilla/5.0 (X11)", "Referer: https://example.org/page",
        ])])
        #expect(parsed.warnings.isEmpty)
        // A value that would split the request is refused on its line.
        #expect(throws: InputFileError.self) { try Self.parse("https://example.org/a.iso\n  user-agent=a\u{7}b") }
    }

    @Test func relativeDirectoriesAreInsideTheDefaultOne() throws {
        let (tasks, _) = try Self.parse("https://example.org/a\n  dir=isos/../films\n")
        #expect(tasks.map(\.directory) == ["/nonexistent-haul-downloads/films"])
    }

    @Test func cjkNamesAndURLs() throws {
        let text = "https://example.org/電影.第01集.mp4\n  out=電影.第01集.mp4\n  dir=/下载\n"
        let (tasks, _) = try Self.parse(text)
        #expect(tasks.count == 1)
        #expect(tasks[0].url == "https://example.org/%E9%9B%BB%E5%BD%B1.%E7%AC%AC01%E9%9B%86.mp4")
        #expect(tasks[0].requestedName == "電影.第01集.mp4")
        #expect(tasks[0].directory == "/下载")
    }

    @Test func tabSeparatedLinksAreMirrorsOfOneTask() throws {
        let (tasks, warnings) = try Self.parse("https://a.example/x.bin\thttps://b.example/x.bin\t https://c.example/x.bin\n  out=x.bin\n")
        #expect(tasks.map(\.url) == ["https://a.example/x.bin"])
        #expect(tasks.map(\.mirrors) == [["https://b.example/x.bin", "https://c.example/x.bin"]])
        #expect(tasks.map(\.requestedName) == ["x.bin"])
        #expect(warnings.isEmpty)
    }

    @Test func httpAndHttpsLinksOnOneLineAreMirrorsOfOneTask() throws {
        let (tasks, warnings) = try Self.parse("https://a.example/x.bin\thttp://c.example/x.bin\n")
        #expect(tasks.map(\.mirrors) == [["http://c.example/x.bin"]])
        #expect(warnings.isEmpty)
    }

    @Test func aMirrorTheIntakeRefusesIsReportedOnItsLine() throws {
        #expect(throws: InputFileError(line: 2, reason: .intake(.unsupportedScheme("ftp")))) {
            try Self.parse("https://a.example/1\nhttps://a.example/x.bin\tftp://c.example/x.bin\n")
        }
    }

    @Test func unknownOptionIsAWarning() throws {
        let (tasks, warnings) = try Self.parse("https://example.org/a\n  bt-tracker=x\n  out=a.bin\n")
        #expect(tasks == [Self.task("https://example.org/a", "a.bin")])
        #expect(warnings.count == 1)
        #expect(warnings[0].hasPrefix("line 2: unknown option 'bt-tracker' ignored"))
    }

    @Test func windowsLineEndsAndByteOrderMark() throws {
        let (tasks, warnings) = try Self.parse("\u{FEFF}https://example.org/a\r\n  out=a.bin\r\n\r\nhttps://example.org/b\r\n")
        #expect(warnings.isEmpty)
        #expect(tasks == [Self.task("https://example.org/a", "a.bin"), Self.task("https://example.org/b")])
    }

    @Test func laterOptionsReplaceEarlierOnesAndApplyToTheirOwnURL() throws {
        let text = "https://example.org/a\n out=1\n out=2\nhttps://example.org/b\n out=3\n"
        let (tasks, _) = try Self.parse(text)
        #expect(tasks.map(\.requestedName) == ["2", "3"])
    }

    @Test func valuesMayContainEqualsSigns() throws {
        let (tasks, _) = try Self.parse("https://example.org/a\n  header=Cookie: a=b; c=d\n  out= x=y.txt \n")
        #expect(tasks[0].headers == ["Cookie: a=b; c=d"])
        #expect(tasks[0].requestedName == "x=y.txt")
    }

    @Test func emptyInput() throws {
        #expect(try Self.parse("").tasks.isEmpty)
        #expect(try Self.parse("\n# only a comment\n\n   \n").tasks.isEmpty)
    }

    static let invalidUTF8: [([UInt8], Int)] = [
        (Array("https://example.org/a\nhttp://h/caf".utf8) + [0xE9, 0x0A], 2),
        (Array("https://example.org/a\n  out=caf".utf8) + [0xE9] + Array(".txt\n".utf8), 2),
        (Array("# ok\n\nhttps://example.org/a\n  header=X-A: ".utf8) + [0xC3, 0x28], 4),
    ]

    /// Invalid UTF-8 refuses the file with the line's number, whether it is in a URL or in an option.
    @Test(arguments: invalidUTF8)
    func invalidUTF8IsRefusedWithItsLine(bytes: [UInt8], line: Int) {
        let expected = InputFileError(line: line, reason: .invalidUTF8)
        #expect(throws: expected) { try InputFile.parse(bytes, intake: Self.intake) }
        #expect(expected.description == "line \(line): the line is not valid UTF-8 text; save the file as UTF-8")
    }

    @Test(arguments: [
        ("  out=a.bin\nhttps://example.org/a\n", 1, "before any URL"),
        ("# c\n\n\tdir=/tmp\n", 3, "before any URL"),
        ("https://example.org/a\n  checksum=md5=0123\n", 2, "checksum 'md5=0123' is not of the form"),
        ("https://example.org/a\n  checksum=sha-256=abc\n", 2, "checksum"),
        ("https://example.org/a\nftp://example.org/b\n", 2, "'ftp' URLs are not downloaded"),
        ("https://example.org/a\n\nfile:///etc/passwd\n", 3, "'file' URLs are not downloaded"),
        ("javascript:alert(1)\n", 1, "'javascript' URLs are not downloaded"),
        ("example.org/a\n", 1, "is not a valid http(s) URL"),
        ("https://example.org/a\n  out\n", 2, "'out' is not an option"),
        ("https://example.org/a\n  out=\n", 2, "out= needs a file name"),
        ("https://example.org/a\n  dir=  \n", 2, "dir= needs a directory"),
        ("https://example.org/a\n  dir=/etc/passwd\n", 2, "'/etc/passwd' is not a directory"),
        ("https://example.org/a\n  header=NoColon\n", 2, "is not of the form 'Name: value'"),
        ("https://example.org/a\n  header=: empty name\n", 2, "is not of the form"),
        ("https://example.org/a\n  header=X-A: b\rX-B: c\n", 2, "contains a line break"),
        ("https://example.org/a\n  out=a.bin\n  header=Range: bytes=0-10\n", 3, "header 'range' is set by haul itself"),
    ])
    func errorsCarryTheLineNumber(text: String, line: Int, message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.description.hasPrefix("line \(line): "))
        }
    }
}
