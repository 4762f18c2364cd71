import Foundation
import HaulCore
import HaulTestSupport
import Testing

/// The built binary's command line goes through the core intake and reports bad input as usage errors (exit 2).
@Suite(.timeLimit(.minutes(2))) struct IntakeTests {
    /// Runs `haul ARGS` exactly as given (no options appended).
    static func haul(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let process = try HaulProcess(binary: "haul", arguments: arguments)
        let status = try await process.waitForExit(timeout: .seconds(60))
        return (status, process.stdoutText(), process.stderrText())
    }

    @Test func aGlobalOptionMayComeBeforeTheSubcommand() async throws {
        let run = try HaulRun()
        let added = try await Self.haul(["--state-dir", run.state, "add", "-d", run.downloads, "http://127.0.0.1:9/one.bin"])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try await Self.haul(["--state-dir", run.state, "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("one.bin"))
        #expect(!listed.stderr.contains("not a valid http(s) URL"))
        let paused = try await Self.haul(["--state-dir", run.state, "pause", "1"])
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(try await run.list().first?["state"] as? String == "paused")
    }

    @Test func aDirectoryThatIsARegularFileIsAUsageError() async throws {
        let run = try HaulRun()
        let file = run.root.path + "/not-a-dir"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        let (status, _, stderr) = try await run.run(["add", "-d", file, "http://127.0.0.1:9/a.bin"])
        #expect(status == 2)
        #expect(stderr.contains(IntakeError.notADirectory(file).description), "\(stderr)")
        #expect(try await run.list().isEmpty)
    }

    static let negativeNumbers: [([String], String)] = [
        (["-j", "-3"], "-j/--max-concurrent must be between 1 and 64, got -3"),
        (["--max-concurrent", "-3"], "-j/--max-concurrent must be between 1 and 64, got -3"),
        (["--retries", "-1"], "--retries must be 0 or more, got -1"),
        (["--timeout", "-5"], "--timeout must be at least 1 second, got -5"),
        // Rates and sizes are text: a negative one is quoted as not a rate or size, not "Missing value".
        (["--limit-rate", "-1"], "--limit-rate '-1' is not a rate"),
        (["--max-overall-download-limit", "-2M"], "--max-overall-download-limit '-2M' is not a rate"),
        (["--min-split-size", "-1M"], "--min-split-size '-1M' is not a size"),
        (["--disk-reserve", "-1"], "--disk-reserve '-1' is not a size"),
    ]

    @Test(arguments: negativeNumbers)
    func negativeNumbersGetTheRangeMessage(arguments: [String], message: String) async throws {
        let run = try HaulRun()
        let (status, _, stderr) = try await run.run(["--headless"] + arguments)
        #expect(status == 2)
        #expect(stderr.contains(message), "\(stderr)")
        #expect(!stderr.contains("Missing value"))
    }

    /// Bad values on the command line get the intake's own verdict, the same the table in HaulCoreTests checks.
    static let badArguments: [([String], IntakeError)] = [
        (["-H", "Range: bytes=0-10", "http://127.0.0.1:9/a"], IntakeError.reservedHeader("range")),
        (["-H", "X-A: b\rX-B: c", "http://127.0.0.1:9/a"], IntakeError.headerControlCharacter("X-A: b\rX-B: c")),
        (["-o", "../escape.bin", "http://127.0.0.1:9/a"], IntakeError.invalidOutputName("../escape.bin")),
        // A name with a leading dash is the name given (and refused as one), not "Missing value for '-o <name>'".
        (["-o", "-rf", "http://127.0.0.1:9/a"], IntakeError.invalidOutputName("-rf")),
        (["--checksum", "md5=00", "http://127.0.0.1:9/a"], IntakeError.invalidChecksum("md5=00")),
        (["ftp://127.0.0.1/a"], IntakeError.unsupportedScheme("ftp")),
        (["http://127.0.0.1:70000/a"], IntakeError.invalidURL("http://127.0.0.1:70000/a")),
    ]

    @Test(arguments: badArguments)
    func badArgumentsGetTheIntakesVerdict(arguments: [String], verdict: IntakeError) async throws {
        let run = try HaulRun()
        let (status, _, stderr) = try await run.run(["add"] + arguments, directory: true)
        #expect(status == 2)
        #expect(stderr.contains(verdict.description), "\(stderr)")
        #expect(try await run.list().isEmpty)
    }

    static let badInputFiles: [([UInt8], String)] = [
        (Array("http://127.0.0.1:9/a\n  header=Range: bytes=0-10\n".utf8),
         "line 2: " + IntakeError.reservedHeader("range").description),
        (Array("http://127.0.0.1:9/a\nhttp://127.0.0.1:9/caf".utf8) + [0xE9, 0x0A],
         "line 2: the line is not valid UTF-8 text"),
        (Array("http://127.0.0.1:9/a\n  out=caf".utf8) + [0xE9] + Array(".txt\n".utf8),
         "line 2: the line is not valid UTF-8 text"),
        (Array("http://127.0.0.1:9/a\nhttp://127.0.0.1:9/".utf8) + [UInt8](repeating: 0x61, count: 65537),
         "line 2: the line is longer than 64.0 KiB"),
    ]

    @Test(arguments: badInputFiles)
    func aBadInputFileIsRefusedNamingTheLine(contents: [UInt8], message: String) async throws {
        let run = try HaulRun()
        let file = run.root.path + "/input.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(contents)))
        let (status, _, stderr) = try await run.run(["add", "-i", file], directory: true)
        #expect(status == 2)
        #expect(stderr.contains(message), "\(stderr)")
        #expect(try await run.list().isEmpty)
    }

    @Test func aHugeInputFileIsRefusedBeforeItIsRead() async throws {
        let run = try HaulRun()
        let file = run.root.path + "/huge.txt"
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        // Sparse: 1 GiB of size, no bytes on disk.
        #expect(truncate(file, 1 << 30) == 0)
        let (status, _, stderr) = try await run.run(["add", "-i", file], directory: true, timeout: .seconds(10))
        #expect(status == 2 && stderr.contains("holds 1.0 GiB; haul reads at most 64.0 MiB"), "\(stderr)")
        #expect(try await run.list().isEmpty)
    }
}
