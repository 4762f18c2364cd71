import Foundation
import Testing
@testable import HaulCore

/// One table of bad inputs, run through every way in: each must give the same `IntakeError`.
@Suite struct IntakeTableTests {
    /// A bad value in one field of an otherwise good request.
    struct Row: Sendable, CustomStringConvertible {
        enum Field: Sendable { case url, output, directory, header, checksum }
        var field: Field
        var value: String
        var verdict: IntakeError
        var description: String { "\(field) \(value.debugDescription)" }
    }

    static let goodURL = "https://example.org/file.iso"
    /// A regular file, named where a directory belongs.
    static let regularFile: String = {
        let path = NSTemporaryDirectory() + "haul-intake-table-\(getpid())"
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        return path
    }()

    static let rows: [Row] = [
        Row(field: .url, value: "ftp://example.org/f", verdict: .unsupportedScheme("ftp")),
        Row(field: .url, value: "javascript:alert(1)", verdict: .unsupportedScheme("javascript")),
        Row(field: .url, value: "example.org/f", verdict: .invalidURL("example.org/f")),
        Row(field: .url, value: "https:///nohost", verdict: .invalidURL("https:///nohost")),
        Row(field: .url, value: "http://example.org:70000/f", verdict: .invalidURL("http://example.org:70000/f")),
        Row(field: .url, value: "https://alice:hunter2@example.org:0/x", verdict: .invalidURL("https://example.org:0/x")),
        Row(field: .url, value: "https://alice:hun#ter2@example.org/x", verdict: .invalidURL("https://example.org/x")),
        Row(field: .url, value: "https://alice:hun?ter2@example.org/x", verdict: .invalidURL("https://example.org/x")),
        Row(field: .url, value: "https://alice:hun/ter2@example.org/x", verdict: .invalidURL("https://example.org/x")),
        Row(field: .output, value: "../etc/passwd", verdict: .invalidOutputName("../etc/passwd")),
        Row(field: .output, value: "sub/name.bin", verdict: .invalidOutputName("sub/name.bin")),
        Row(field: .output, value: ".hidden", verdict: .invalidOutputName(".hidden")),
        Row(field: .output, value: "a\u{1B}[2Jb.txt", verdict: .invalidOutputName("a\u{1B}[2Jb.txt")),
        Row(field: .directory, value: regularFile, verdict: .notADirectory(regularFile)),
        Row(field: .header, value: "Range: bytes=0-10", verdict: .reservedHeader("range")),
        Row(field: .header, value: "if-range: \"abc\"", verdict: .reservedHeader("if-range")),
        Row(field: .header, value: "Content-Length: 5", verdict: .reservedHeader("content-length")),
        Row(field: .header, value: "Transfer-Encoding: chunked", verdict: .reservedHeader("transfer-encoding")),
        Row(field: .header, value: "X-A: b\rX-B: c", verdict: .headerControlCharacter("X-A: b\rX-B: c")),
        Row(field: .header, value: "X-Big: " + String(repeating: "a", count: 9000),
            verdict: .headerTooLarge(name: "X-Big", bytes: 9007, limit: HeaderRule.maxHeaderBytes)),
        Row(field: .header, value: "X-Bell: \u{7}", verdict: .headerControlCharacter("X-Bell: \u{7}")),
        Row(field: .header, value: "X-A: \u{0}tail", verdict: .headerNUL("X-A: \u{0}tail")),
        Row(field: .header, value: "X-A: b\u{0}\rX-B: c", verdict: .headerNUL("X-A: b\u{0}\rX-B: c")),
        Row(field: .header, value: "NoColon", verdict: .malformedHeader("NoColon")),
        Row(field: .header, value: ": empty name", verdict: .malformedHeader(": empty name")),
        Row(field: .header, value: "Bad Name: x", verdict: .headerNameWithSpace("Bad Name: x")),
        Row(field: .checksum, value: "md5=0123", verdict: .invalidChecksum("md5=0123")),
        Row(field: .checksum, value: "sha-256=abc", verdict: .invalidChecksum("sha-256=abc")),
    ]

    /// The verdict of `body`, nil when it accepted the input.
    static func verdict(_ body: () throws(IntakeError) -> Void) -> IntakeError? {
        do { try body() } catch { return error }
        return nil
    }

    /// `haul URL -o … -H … --checksum …` with `-d` as the intake's default directory.
    static func commandLine(_ row: Row) -> IntakeError? {
        let intake = TaskIntake(defaultDirectory: row.field == .directory ? row.value : "/nonexistent-haul-downloads")
        return verdict { () throws(IntakeError) in
            _ = try intake.resolvedDirectory(nil)
            _ = try intake.commandLineTasks(
                urls: [row.field == .url ? row.value : goodURL],
                output: row.field == .output ? row.value : nil,
                headers: row.field == .header ? [row.value] : [],
                checksum: row.field == .checksum ? row.value : nil)
        }
    }

    /// An input file with the bad value on its own line (the URL line, or an option under a good URL).
    static func inputFile(_ row: Row) -> (verdict: IntakeError?, line: Int?) {
        var text = "# table row\n" + (row.field == .url ? row.value : goodURL) + "\n"
        switch row.field {
        case .url: break
        case .output: text += "  out=\(row.value)\n"
        case .directory: text += "  dir=\(row.value)\n"
        case .header: text += "  header=\(row.value)\n"
        case .checksum: text += "  checksum=\(row.value)\n"
        }
        do {
            _ = try InputFile.parse(Array(text.utf8), intake: TaskIntake(defaultDirectory: "/nonexistent-haul-downloads"))
            return (nil, nil)
        } catch {
            guard case let .intake(verdict) = error.reason else { return (nil, error.line) }
            return (verdict, error.line)
        }
    }

    /// The shape an RPC `addUri([url], {out, dir, header, checksum})` fills in.
    static func request(_ row: Row) -> IntakeError? {
        let request = TaskRequest(
            url: row.field == .url ? row.value : goodURL,
            output: row.field == .output ? row.value : nil,
            directory: row.field == .directory ? row.value : nil,
            headers: row.field == .header ? [row.value] : [],
            checksum: row.field == .checksum ? row.value : nil)
        return verdict { () throws(IntakeError) in _ = try TaskIntake(defaultDirectory: "/nonexistent-haul-downloads").newTask(request) }
    }

    @Test(arguments: rows)
    func everyWayInGivesTheSameVerdict(row: Row) {
        #expect(Self.commandLine(row) == row.verdict, "command line")
        let (fileVerdict, line) = Self.inputFile(row)
        #expect(fileVerdict == row.verdict, "input file")
        #expect(line == (row.field == .url ? 2 : 3), "input file line")
        #expect(Self.request(row) == row.verdict, "request")
        if row.field == .url {
            let prompt = Self.verdict { () throws(IntakeError) in
                _ = try TaskIntake(defaultDirectory: "/nonexistent-haul-downloads").promptTasks(row.value)
            }
            #expect(prompt == row.verdict, "prompt")
        }
    }

    /// The value an error carries, as its message should quote it.
    static func payload(_ error: IntakeError) -> String? {
        switch error {
        case let .invalidURL(text), let .unsupportedScheme(text), let .invalidOutputName(text), let .notADirectory(text),
             let .directoryNotAllowed(text), let .malformedHeader(text), let .headerControlCharacter(text), let .headerNUL(text),
             let .headerNameWithSpace(text), let .reservedHeader(text), let .invalidChecksum(text), let .invalidProxy(text),
             let .unsupportedProxyScheme(_, text), let .invalidNoProxy(text), let .unreadableFile(_, text),
             let .malformedCookiesFile(text, _), let .fileNotAllowed(_, text), let .invalidStreamOption(_, text):
            return text
        case let .proxyInEnvironment(_, error):
            return payload(error)
        case let .headerTooLarge(name, _, _):
            return name
        case .outputNeedsOneURL, .emptyDirectory, .headersTooLarge, .mirrorNeedsOneURL, .tooManyMirrors:
            return nil
        }
    }

    @Test(arguments: rows)
    func theMessageQuotesTheBadValueOnOneLineWithoutCredentials(row: Row) throws {
        let text = row.verdict.description
        #expect(!text.contains("\n") && !text.contains("\r") && !text.contains("\u{1B}") && !text.contains("\u{7}"))
        #expect(!text.contains("hunter2") && !text.contains("alice"))
        let quoted = try #require(Self.payload(row.verdict)).escapingAllControlCharacters
        #expect(text.contains("'\(quoted)'"), "\(text)")
    }

    @Test func aTasksHeadersTogetherAreCappedAt64KiB() throws {
        let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")
        let headers = (0..<70).map { "X-H\($0): " + String(repeating: "v", count: 1000) }
        let verdict = Self.verdict { () throws(IntakeError) in _ = try intake.commandLineTasks(urls: [Self.goodURL], headers: headers) }
        #expect(verdict == .headersTooLarge(bytes: headers.reduce(0) { $0 + $1.utf8.count }, limit: HeaderRule.maxTotalBytes))
        _ = try intake.commandLineTasks(urls: [Self.goodURL], headers: Array(headers.prefix(60)))
    }

    @Test func goodInputPassesEveryWayInToTheSameTask() throws {
        let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")
        let hex = String(repeating: "ab", count: 32)
        let fromArguments = try intake.commandLineTasks(
            urls: ["HTTPS://example.org/電影.mp4"], output: "film.mp4", headers: ["Authorization: Bearer x\tY"], checksum: "sha-256=\(hex)")
        let text = "HTTPS://example.org/電影.mp4\n  out=film.mp4\n  header=Authorization: Bearer x\tY\n  checksum=sha-256=\(hex)\n"
        let fromFile = try InputFile.parse(Array(text.utf8), intake: intake).tasks
        let fromRequest = try intake.newTask(TaskRequest(
            url: "HTTPS://example.org/電影.mp4", output: "film.mp4", headers: ["Authorization: Bearer x\tY"], checksum: "sha-256=\(hex)"))
        #expect(fromArguments == [fromRequest])
        #expect(fromFile == [fromRequest])
        #expect(fromRequest.url == "https://example.org/%E9%9B%BB%E5%BD%B1.mp4")
        #expect(try intake.promptTasks("  HTTPS://example.org/電影.mp4 \n http://b.example/x ").map(\.url)
            == ["https://example.org/%E9%9B%BB%E5%BD%B1.mp4", "http://b.example/x"])
        #expect(try intake.promptTasks("   ").isEmpty)
    }

    /// A refused output name is told every rule it may break: a 300-byte name, or one with a leading space, has
    /// none of "a '/', a leading dot or dash, a control character" and was refused with only those named.
    @Test func aRefusedOutputNameIsToldTheLengthAndSpaceRules() {
        let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")
        for name in [String(repeating: "n", count: 300), " lead.bin", "trail.bin "] {
            let verdict = Self.verdict { () throws(IntakeError) in
                _ = try intake.commandLineTasks(urls: ["http://a.example/1"], output: name)
            }
            #expect(verdict == .invalidOutputName(name))
            let text = verdict?.description ?? ""
            #expect(text.contains("at most \(SafeFileName.maxBytes) bytes") && text.contains("space"), "\(text)")
        }
    }

    @Test func anOutputNameNamesOneURL() {
        let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-downloads")
        #expect(Self.verdict { () throws(IntakeError) in
            _ = try intake.commandLineTasks(urls: ["http://a.example/1", "http://a.example/2"], output: "x.bin")
        } == .outputNeedsOneURL)
        #expect(Self.verdict { () throws(IntakeError) in
            _ = try intake.commandLineTasks(urls: ["http://a.example/1"], output: "x.bin", hasInputFile: true)
        } == .outputNeedsOneURL)
    }
}
