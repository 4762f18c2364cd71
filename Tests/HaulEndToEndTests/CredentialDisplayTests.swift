import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// A link with `user:password@` and a token in `-H`: no name, line, listing, log or process argument shows them.
@Suite(.timeLimit(.minutes(2)))
struct CredentialDisplayTests {
    static let password = "pw-9f1c2e"
    static let token = "ghp_tok3n"

    @Test func aRootLinkWithAPasswordIsNamedIndexHtmlEverywhere() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/", .file(size: 5000, seed: 3))
        let run = try HaulRun()
        let url = server.url("/").replacingOccurrences(of: "http://", with: "http://user:\(Self.password)@").dropLast()
        let (status, out, err) = try await run.run(["--headless", String(url)], directory: true)
        #expect(status == 0, "\(out)\n\(err)")
        #expect(!(out + err).contains(Self.password), "\(out)\n\(err)")
        #expect((out + err).contains("index.html"), "\(out)\n\(err)")
        let (_, listed, _) = try await run.run(["list"])
        let (_, json, _) = try await run.run(["list", "--json"])
        #expect(!listed.contains(Self.password) && !json.contains(Self.password), "\(listed)\n\(json)")
    }

    @Test func aDaemonKeepsTasksOffItsCommandLine() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var slow = FaultPlan.file(size: 4 << 20, seed: 4)
        slow.throttle = 64 << 10
        server.route("/slow.bin", slow)
        let run = try HaulRun()
        let url = server.url("/slow.bin").replacingOccurrences(of: "http://", with: "http://user:\(Self.password)@")
        let daemon = try await BackgroundDaemon(run, [url, "-H", "Authorization: token \(Self.token)", "-d", run.downloads])
        defer { daemon.kill() }
        let cmdline = readProcFile("/proc/\(daemon.pid)/cmdline")
        #expect(cmdline.contains("--keep-running"), "this is the daemon: \(cmdline)")
        #expect(!cmdline.contains(Self.password) && !cmdline.contains(Self.token), "\(cmdline)")
        try await eventually("the task runs in the background", timeout: .seconds(15)) {
            try await run.list().first?["state"] as? String == "running"
        }
        let (_, listed, _) = try await run.run(["list"])
        #expect(!listed.contains(Self.password), "\(listed)")
        let (stopped, _, _) = try await run.run(["stop"], timeout: .seconds(30))
        #expect(stopped == 0)
        let log = (try? String(contentsOfFile: run.state + "/haul.log", encoding: .utf8)) ?? ""
        #expect(!log.contains(Self.password) && !log.contains(Self.token), "\(log)")
    }
}
