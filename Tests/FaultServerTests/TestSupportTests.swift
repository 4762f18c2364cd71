import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The shared test helpers themselves.
@Suite struct TestSupportTests {
    @Test func temporaryDirectoryIsCreatedAndRemoved() throws {
        let directory = try TemporaryDirectory()
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        try Data([1, 2]).write(to: URL(fileURLWithPath: directory.file("x")))
        #expect(directory.url.path == directory.path)
        directory.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func eventuallyGivesUpAtItsDeadline() async throws {
        // It asks more than once before it gives up, and says what it waited for, how long and where.
        var asked = 0
        let error = await #expect(throws: TimedOut.self) {
            try await eventually("the never condition", timeout: .milliseconds(100), poll: .milliseconds(5)) {
                asked += 1
                return false
            }
        }
        #expect(asked >= 2)
        #expect(error?.description.contains("the never condition") == true, "\(String(describing: error))")
        #expect(error?.timeout == .milliseconds(100))
        #expect(error?.location.hasPrefix("FaultServerTests/TestSupportTests.swift:") == true, "\(String(describing: error))")
        var calls = 0
        try await eventually(timeout: .seconds(10), poll: .milliseconds(1)) {
            calls += 1
            return calls == 3
        }
        let value = try await eventuallyValue(timeout: .seconds(10)) { () async -> Int? in 7 }
        #expect(value == 7)
    }

    @Test func eventuallySteadyReturnsAValueThatStoppedMovingAndGivesUpOnOneThatDoesNot() async throws {
        // Moves for its first five observations, then stays: the value it settled on comes back.
        var observed = 0
        let settled = try await eventuallySteady("the counter settled", quiet: .milliseconds(50), timeout: .seconds(10), poll: .milliseconds(5)) {
            observed += 1
            return min(observed, 5)
        }
        #expect(settled == 5)
        #expect(observed > 5)
        // Never the same twice: times out, naming what it waited for and the last value it saw.
        var moving = 0
        let error = await #expect(throws: TimedOut.self) {
            _ = try await eventuallySteady("the moving counter", quiet: .milliseconds(50), timeout: .milliseconds(200), poll: .milliseconds(5)) {
                moving += 1
                return moving
            }
        }
        #expect(moving >= 2)
        #expect(error?.description.contains("the moving counter (last seen: \(moving))") == true, "\(String(describing: error))")
    }

    @Test func haulProcessCapturesOutputAndStatus() async throws {
        let process = try HaulProcess(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo one; echo two >&2; printf three; exit 3"])
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 3)
        #expect(process.stdoutLines() == ["one", "three"])
        #expect(process.stderrLines() == ["two"])
        await #expect(throws: HaulProcess.Failure.self) {
            try await process.waitForOutput(containing: "four", timeout: .seconds(5))
        }
    }

    @Test func childrenGetNoInheritedProxyNorTheTestersSettings() async throws {
        let environment = HaulProcess.childEnvironment(
            inherited: ["http_proxy": "http://proxy:3128", "ALL_PROXY": "x", "HOME": "/root", "XDG_CONFIG_HOME": "/home/me/.config"],
            given: ["HAUL_X": "1"])
        #expect(environment == [
            "HOME": "/root", "HAUL_X": "1", "SWIFT_BACKTRACE": "interactive=no", "XDG_CONFIG_HOME": "/nonexistent/haul-tests-config",
        ])
        let process = try HaulProcess(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo \"[$HAUL_X]\""], environment: ["HAUL_X": "given"])
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 0)
        #expect(process.stdoutLines() == ["[given]"])
    }

    @Test func haulProcessCanBeSignalledAndFed() async throws {
        let process = try HaulProcess(URL(fileURLWithPath: "/bin/cat"), input: .pipe)
        process.writeStdin("hello\n")
        try await process.waitForOutput(containing: "hello", in: .stdout, timeout: .seconds(5))
        process.kill(SIGTERM)
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 128 + SIGTERM)
    }

    @Test func binariesAreFoundInTheBuildsBinDirectory() throws {
        let url = try HaulProcess.binary(named: "haul-fault-server")
        #expect(FileManager.default.isExecutableFile(atPath: url.path))
        #expect(url.deletingLastPathComponent().path == HaulProcess.binDirectory().path)
        do {
            _ = try HaulProcess.binary(named: "no-such-binary")
            Issue.record("a binary that was never built was found")
        } catch {
            #expect("\(error)".contains("no executable 'no-such-binary' in '\(HaulProcess.binDirectory().path)'"), "\(error)")
        }
    }

    @Test func theBinDirectoryIsTheOneMakeNamedOrTheTestExecutables() {
        let exe = "/build/x86_64-unknown-linux-gnu/debug/haulPackageTests.xctest"
        let named = HaulProcess.binDirectory(environment: ["HAUL_BIN_DIR": "/made/debug"], testExecutable: exe)
        #expect(named == BinDirectory(path: "/made/debug", origin: .variable))
        let beside = HaulProcess.binDirectory(environment: ["HAUL_BIN_DIR": ""], testExecutable: exe)
        #expect(beside == BinDirectory(path: "/build/x86_64-unknown-linux-gnu/debug", origin: .testExecutable))
        #expect(HaulProcess.binDirectory(environment: [:], testExecutable: nil).origin == .unknown)
        // A directory make named that lacks the binary fails with a message naming it, and looks nowhere else.
        let failure = HaulProcess.Failure.binaryNotFound(name: "haul", directory: named)
        #expect(failure.description.hasPrefix("no executable 'haul' in '/made/debug': HAUL_BIN_DIR names the build"))
    }

    @Test(.enabled(if: NginxFixture.isAvailable)) func nginxServesRangesAndStops() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        let content = FaultPlan.Body.generated(size: 100_000, seed: 1).bytes()
        try nginx.write(file: "movie.bin", bytes: content)
        let curl = try Curl()
        let range = try await curl.fetch(nginx.url("/movie.bin"), headers: ["Range: bytes=1000-"])
        #expect(range.status == 206)
        #expect(range.header("Content-Range") == "bytes 1000-99999/100000")
        #expect(range.body == Array(content[1000...]))
        let named = try await curl.fetch(nginx.url("/cd/movie.bin"), options: ["-I"])
        #expect(named.header("Content-Disposition") == "attachment; filename=\"movie.bin\"")
        let renamed = try await curl.fetch(nginx.url("/cd/movie.bin?name=%E9%9B%BB.bin"), options: ["-I"])
        #expect(renamed.header("Content-Disposition") == "attachment; filename*=UTF-8''%E9%9B%BB.bin")
        let entry = try await eventuallyValue("the access log entry", timeout: .seconds(5)) {
            nginx.accessEntries().first
        }
        #expect(entry.status == 206)
        #expect(entry.range == "bytes=1000-")
        #expect(entry.bodyBytesSent == 99_000)
        #expect(entry.uri == "/movie.bin")
        let port = nginx.port
        nginx.stop()
        #expect(!LoopbackPort.isAccepting(port))
    }
}
