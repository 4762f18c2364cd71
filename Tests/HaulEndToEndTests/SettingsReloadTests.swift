import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A running daemon and its settings file (DESIGN §10): `haul config --reload` applies a new limit and
/// concurrency at once and names what needs a restart; a bad file changes nothing; SIGHUP does the same as
/// `--reload`. What the daemon uses is read back over its aria2 RPC (`aria2.getGlobalOption`).
@Suite(.timeLimit(.minutes(2))) struct SettingsReloadTests {
    /// `aria2.getGlobalOption` of the daemon listening on `port`.
    static func globalOptions(port: Int, secret: String) async throws -> [String: Any] {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getGlobalOption","params":["token:\#(secret)"]}"#
        let answer = try await RPCClient.call("http://127.0.0.1:\(port)/jsonrpc", body: body, headers: ["Content-Type: application/json"])
        return try #require(answer.object?["result"] as? [String: Any], "\(answer.body)")
    }

    @Test func reloadAppliesANewLimitToARunningDaemon() async throws {
        let run = try HaulRun()
        let secret = Aria2Haul.randomSecret()
        let secretFile = run.root.file("rpc-secret.txt")
        _ = FileManager.default.createFile(atPath: secretFile, contents: Data((secret + "\n").utf8), attributes: [.posixPermissions: 0o600])
        let settings: (String) -> String = { extra in
            """
            rpc-listen = "0"
            rpc-secret-file = "\(secretFile)"
            \(extra)
            """
        }
        let file = try SettingsTests.settingsFile(run, settings("max-overall-download-limit = \"1M\"\nlimit-rate = \"300K\""))
        let daemon = try await BackgroundDaemon(run, ["--config", file])
        defer { daemon.kill() }
        let log = run.state + "/haul.log"
        let line = try await eventuallyValue("the daemon's RPC port in its log", timeout: .seconds(10)) {
            readProcFile(log).split(separator: "\n").first { $0.contains("aria2 JSON-RPC on http://") }.map(String.init)
        }
        let port = try #require(Aria2Haul.port(in: line))
        let before = try await Self.globalOptions(port: port, secret: secret)
        #expect(before["max-overall-download-limit"] as? String == "1048576", "\(before)")
        #expect(before["max-download-limit"] as? String == "307200", "\(before)")

        // A new overall cap, per-task cap and concurrency; a changed origin for the RPC needs a restart.
        try settings("max-overall-download-limit = \"2M\"\nlimit-rate = \"512K\"\nmax-concurrent = 5\nrpc-allow-origin = \"http://ariang.example\"")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let (status, out, err) = try await run.run(["config", "--reload"], timeout: .seconds(20))
        #expect(status == 0, "\(out)\n\(err)")
        #expect(out.contains("applied  max-overall-download-limit: \"1M\" → \"2M\" (\(file):3)"), "\(out)")
        #expect(out.contains("applied  max-concurrent: 3 → 5"), "\(out)")
        #expect(out.contains("restart  rpc-allow-origin: (none) → \"http://ariang.example\""), "\(out)")
        let after = try await Self.globalOptions(port: port, secret: secret)
        #expect(after["max-overall-download-limit"] as? String == "2097152", "\(after)")
        #expect(after["max-download-limit"] as? String == "524288", "\(after)")
        #expect(after["max-concurrent-downloads"] as? String == "5", "\(after)")

        // A bad file is refused, naming its line and key, and the daemon keeps what it had.
        try settings("split = 99").write(toFile: file, atomically: true, encoding: .utf8)
        let (bad, _, badErr) = try await run.run(["config", "--reload"], timeout: .seconds(20))
        #expect(bad == 2)
        #expect(badErr.contains("\(file):3: key 'split': must be between 1 and 16, got 99"), "\(badErr)")
        #expect(try await Self.globalOptions(port: port, secret: secret)["max-overall-download-limit"] as? String == "2097152")

        // SIGHUP to the daemon (no terminal) reloads too, and the daemon goes on.
        try settings("max-overall-download-limit = \"3M\"").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(kill(daemon.pid, SIGHUP) == 0)
        try await eventually("SIGHUP applied the new cap", timeout: .seconds(10), poll: .milliseconds(200)) {
            (try? await Self.globalOptions(port: port, secret: secret))?["max-overall-download-limit"] as? String == "3145728"
        }
        #expect(daemon.isAlive)
        #expect(readProcFile(log).contains("SIGHUP: settings reloaded from \(file)"))
        let (stopped, _, _) = try await run.run(["stop"], timeout: .seconds(30))
        #expect(stopped == 0)
    }
}
