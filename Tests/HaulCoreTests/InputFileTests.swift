import Testing
@testable import HaulCore

@Suite struct InputFileTests {
    static let hex = String(repeating: "ab", count: 32)

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
        let (entries, warnings) = try InputFile.parse(text)
        #expect(warnings.isEmpty)
        #expect(entries == [
            InputFileEntry(
                url: "https://example.org/ubuntu.iso", out: "ubuntu-24.04.iso", dir: "/srv/isos",
                checksum: Checksum(algorithm: .sha256, hex: Self.hex),
                headers: ["Authorization: Bearer abc", "X-Trace: 1"]),
            InputFileEntry(url: "http://example.org/notes.pdf"),
        ])
    }

    @Test func cjkNamesAndURLs() throws {
        let text = "https://example.org/電影.第01集.mp4\n  out=電影.第01集.mp4\n  dir=/下载\n"
        let (entries, _) = try InputFile.parse(text)
        #expect(entries.count == 1)
        #expect(entries[0].url == "https://example.org/%E9%9B%BB%E5%BD%B1.%E7%AC%AC01%E9%9B%86.mp4")
        #expect(entries[0].out == "電影.第01集.mp4")
        #expect(entries[0].dir == "/下载")
    }

    @Test func tabSeparatedMirrorsTakeTheFirst() throws {
        let (entries, warnings) = try InputFile.parse("https://a.example/x.bin\thttps://b.example/x.bin\tftp://c.example/x.bin\n")
        #expect(entries.map(\.url) == ["https://a.example/x.bin"])
        #expect(warnings == ["line 1: only the first of 3 URLs is downloaded; the others are ignored"])
    }

    @Test func unknownOptionIsAWarning() throws {
        let (entries, warnings) = try InputFile.parse("https://example.org/a\n  split=4\n  out=a.bin\n")
        #expect(entries == [InputFileEntry(url: "https://example.org/a", out: "a.bin")])
        #expect(warnings.count == 1)
        #expect(warnings[0].hasPrefix("line 2: unknown option 'split' ignored"))
    }

    @Test func windowsLineEndsAndByteOrderMark() throws {
        let (entries, warnings) = try InputFile.parse("\u{FEFF}https://example.org/a\r\n  out=a.bin\r\n\r\nhttps://example.org/b\r\n")
        #expect(warnings.isEmpty)
        #expect(entries == [
            InputFileEntry(url: "https://example.org/a", out: "a.bin"),
            InputFileEntry(url: "https://example.org/b"),
        ])
    }

    @Test func laterOptionsReplaceEarlierOnesAndApplyToTheirOwnURL() throws {
        let text = "https://example.org/a\n out=1\n out=2\nhttps://example.org/b\n out=3\n"
        let (entries, _) = try InputFile.parse(text)
        #expect(entries.map(\.out) == ["2", "3"])
    }

    @Test func valuesMayContainEqualsSigns() throws {
        let (entries, _) = try InputFile.parse("https://example.org/a\n  header=Cookie: a=b; c=d\n  out= x=y.txt \n")
        #expect(entries[0].headers == ["Cookie: a=b; c=d"])
        #expect(entries[0].out == "x=y.txt")
    }

    @Test func emptyInput() throws {
        #expect(try InputFile.parse("").entries.isEmpty)
        #expect(try InputFile.parse("\n# only a comment\n\n   \n").entries.isEmpty)
    }

    @Test(arguments: [
        ("  out=a.bin\nhttps://example.org/a\n", 1, "before any URL"),
        ("# c\n\n\tdir=/tmp\n", 3, "before any URL"),
        ("https://example.org/a\n  checksum=md5=0123\n", 2, "checksum 'md5=0123' is not usable"),
        ("https://example.org/a\n  checksum=sha-256=abc\n", 2, "checksum"),
        ("https://example.org/a\nftp://example.org/b\n", 2, "'ftp' URLs are not downloaded"),
        ("https://example.org/a\n\nfile:///etc/passwd\n", 3, "'file' URLs are not downloaded"),
        ("javascript:alert(1)\n", 1, "'javascript' URLs are not downloaded"),
        ("example.org/a\n", 1, "is not a valid http(s) URL"),
        ("https://example.org/a\n  out\n", 2, "'out' is not an option"),
        ("https://example.org/a\n  out=\n", 2, "out= needs a file name"),
        ("https://example.org/a\n  dir=  \n", 2, "dir= needs a directory"),
        ("https://example.org/a\n  header=NoColon\n", 2, "is not of the form 'Name: value'"),
        ("https://example.org/a\n  header=: empty name\n", 2, "is not of the form"),
        ("https://example.org/a\n  header=X-A: b\rX-B: c\n", 2, "is not of the form"),
    ])
    func errorsCarryTheLineNumber(text: String, line: Int, message: String) {
        do {
            _ = try InputFile.parse(text)
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.description.hasPrefix("line \(line): "))
        }
    }
}
