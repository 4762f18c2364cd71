import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `haul.log`, the background haul's output: every line carries its time, ISO 8601 with the offset.
@Suite(.timeLimit(.minutes(2))) struct DaemonLogTests {
    @Test func everyLineOfTheLogStartsWithATimestamp() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/logged.bin", .file(size: 10_000, seed: 97))
        let run = try HaulRun()
        let daemon = try await BackgroundDaemon(run, [server.url("/logged.bin")])
        defer { daemon.kill() }
        try await eventually("the download completes", timeout: .seconds(20), poll: .milliseconds(200)) {
            HaulRun.state(of: 1, in: (try? await run.listStrict()) ?? []) == "completed"
        }
        let (stopped, _, _) = try await run.run(["stop"], timeout: .seconds(30))
        #expect(stopped == 0)
        try await eventually("the daemon's process ended", timeout: .seconds(5)) { !daemon.isAlive }
        let log = try String(contentsOfFile: run.state + "/haul.log", encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.contains { $0.contains("logged.bin") }, "\(log)")
        let stamp = #/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d haul: /#
        #expect(lines.allSatisfy { $0.prefixMatch(of: stamp) != nil }, "\(log)")
    }
}
