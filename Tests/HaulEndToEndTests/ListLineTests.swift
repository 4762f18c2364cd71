import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul list` (plain): ASCII figures under a locale that is not UTF-8, and speed and ETA for a running task.
@Suite(.timeLimit(.minutes(2))) struct ListLineTests {
    /// Runs `haul list` with `locale` as LC_ALL; returns its output.
    static func list(_ run: HaulRun, locale: String) async throws -> String {
        let process = try HaulProcess(binary: "haul", arguments: ["list", "--state-dir", run.state], environment: ["LC_ALL": locale])
        #expect(try await process.waitForExit(timeout: .seconds(30)) == 0)
        return process.stdoutText()
    }

    /// A queued task's unknown percentage is `—` in UTF-8 and `-` under LC_ALL=C, whose output is all ASCII.
    @Test func underTheCLocaleTheUnknownFigureIsADash() async throws {
        let run = try HaulRun()
        let (added, _, addErrors) = try await run.run(["add", "http://127.0.0.1:9/later.bin"], directory: true)
        #expect(added == 0, "\(addErrors)")
        let utf8 = try await Self.list(run, locale: "C.UTF-8")
        #expect(utf8.contains("later.bin") && utf8.contains("—"), "\(utf8)")
        let ascii = try await Self.list(run, locale: "C")
        #expect(ascii.contains("later.bin"), "\(ascii)")
        let allASCII = ascii.allSatisfy { $0.isASCII }
        #expect(allASCII, "\(ascii)")
        #expect(ascii.contains(" -  "), "\(ascii)")
    }

    /// A task a running haul downloads shows its speed and time left.
    @Test func aRunningTaskShowsItsSpeedAndETA() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 8 << 20, seed: 98)
        slow.throttle = 256 << 10
        server.route("/paced.bin", slow)
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/paced.bin")])
        defer { daemon.kill() }
        let line = try await eventuallyValue("a speed in the list", timeout: .seconds(20), poll: .milliseconds(200)) { () -> String? in
            let text = try await Self.list(run, locale: "C.UTF-8")
            return text.split(separator: "\n").first { $0.contains("running") && $0.contains("/s, ETA ") }.map(String.init)
        }
        #expect(line.contains("paced.bin"), "\(line)")
        #expect(line.range(of: #"KiB/s, ETA \d+(s|m\d\ds)\)"#, options: .regularExpression) != nil, "\(line)")
        let (stopped, _, _) = try await run.run(["stop"], timeout: .seconds(30))
        #expect(stopped == 0)
    }
}
