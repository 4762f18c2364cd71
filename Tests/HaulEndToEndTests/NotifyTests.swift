import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// `--notify`: a notify-send on PATH (a script that logs its arguments) is run when a download completes or fails,
/// only when a session bus is there; without one haul says so once and downloads as usual.
@Suite(.timeLimit(.minutes(1))) struct NotifyTests {
    /// A notify-send that logs its arguments after `delay` (a real one waits for the notification server's answer).
    static func fakeNotifySend(in run: HaulRun, delay: String? = nil) throws -> (directory: String, log: String) {
        let directory = run.root.file("bin")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let log = run.root.file("notify.log")
        let script = directory + "/notify-send"
        // One write per call: two notifications at once must not interleave their lines.
        let pause = delay.map { "sleep \($0)\n" } ?? ""
        try "#!/bin/sh\n\(pause)line=$(printf '%s|' \"$@\")\nprintf '%s\\n' \"$line\" >> '\(log)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return (directory, log)
    }

    @Test func aCompletedAndAFailedDownloadAreNotified() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/<i>ok&.bin", .file(size: 10_000, seed: 81))
        server.route("/gone.bin", .status(404))
        let run = try HaulRun()
        let (bin, log) = try Self.fakeNotifySend(in: run)
        let haul = try HaulProcess(
            binary: "haul",
            arguments: ["--headless", "--notify", "--retries", "0", "--state-dir", run.state, "-d", run.downloads,
                        server.url("/%3Ci%3Eok%26.bin"), server.url("/gone.bin")],
            environment: ["PATH": bin + ":/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 1)
        let lines = try await eventuallyValue("two notifications", timeout: .seconds(10)) { () -> [String]? in
            let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
            return lines.count >= 2 ? lines : nil
        }
        #expect(lines.contains { $0.contains("Downloaded <i>ok&.bin|") && $0.hasPrefix("--app-name=haul|") }, "\(lines)")
        #expect(lines.contains { $0.contains("Download failed: gone.bin|") && $0.contains("404") }, "\(lines)")
    }

    /// A headless run waits for its notifications before it exits: all three completions of a three-file run are
    /// notified by the time haul has ended, although each notify-send takes half a second.
    @Test func aHeadlessRunExitsOnlyAfterItsNotificationsArrive() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        for index in 1...3 { server.route("/n\(index).bin", .file(size: 10_000, seed: UInt64(90 + index))) }
        let run = try HaulRun()
        let (bin, log) = try Self.fakeNotifySend(in: run, delay: "0.5")
        let haul = try HaulProcess(
            binary: "haul",
            arguments: ["--headless", "--notify", "--state-dir", run.state, "-d", run.downloads]
                + (1...3).map { server.url("/n\($0).bin") },
            environment: ["PATH": bin + ":/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0)
        let lines = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.filter { $0.contains("|Downloaded n") }.count == 3, "\(lines)")
    }

    @Test func withoutASessionBusItSaysSoAndDownloads() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a.bin", .file(size: 10_000, seed: 82))
        let run = try HaulRun()
        let (bin, log) = try Self.fakeNotifySend(in: run)
        let haul = try HaulProcess(
            binary: "haul",
            arguments: ["--headless", "--notify", "--state-dir", run.state, "-d", run.downloads, server.url("/a.bin")],
            environment: ["PATH": bin + ":/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": run.root.path])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0)
        #expect(haul.stderrText().contains("--notify: no desktop session bus"), "\(haul.stderrText())")
        #expect(!FileManager.default.fileExists(atPath: log))
        #expect(run.file("a.bin")?.count == 10_000)
    }
}
