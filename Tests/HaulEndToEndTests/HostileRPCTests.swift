import Foundation
import HaulCore
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Aria2Conformance {
    /// A haul serving RPC on TCP under attack from clients that need no secret (Scripts/hostile_client.py):
    /// each attack is bounded, and a legitimate client is still answered within 100 ms while it goes on.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct HostileRPCTests {
        static let script = RPCClient.scripts + "/hostile_client.py"

        static func attack(_ arguments: [String]) throws -> HaulProcess {
            try RPCClient.python([script] + arguments, input: .pipe)
        }

        /// The statuses of five `aria2.getVersion` calls, over TCP or the owner's Unix socket.
        static func probe(_ haul: Aria2Haul, overSocket: Bool = false) async throws -> [Int] {
            let socket = overSocket ? ["--unix", haul.run.state + "/haul.sock"] : []
            let process = try RPCClient.python([script, "probe", haul.url, "--token", haul.secret] + socket)
            #expect(try await process.waitForExit(timeout: .seconds(30)) == 0, "\(process.stderrText())")
            let line = try #require(process.stdoutLines().last)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["statuses"] as? [Int] ?? []
        }

        /// CPU seconds (user and system) the process has used so far.
        static func cpuSeconds(_ pid: Int32) -> Double {
            let fields = readProcFile("/proc/\(pid)/stat").split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// Resident memory in MiB.
        static func residentMiB(_ pid: Int32) -> Double {
            let line = readProcFile("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            return (line?.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
        }

        @Test func deepNestingFromAnyPageDoesNotHoldOthersUp() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            // Eight cross-origin text/plain posts at a time, as any web page can send them, nested 500 deep.
            let attacker = try Self.attack(["nesting", haul.url, "--depth", "500", "--workers", "8"])
            defer { attacker.closeStdin() }
            try await attacker.waitForOutput(containing: "ATTACKING", timeout: .seconds(30))
            #expect(try await Self.probe(haul) == [200, 200, 200, 200, 200], "getVersion answered during the attack")
            let deep = try await RPCClient.call(
                haul.url, body: String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
            #expect(deep.error?["code"] as? Int == -32700)
            #expect((deep.error?["message"] as? String)?.contains("64") == true, "\(deep.body)")
        }

        @Test func repliesThatAreNeverReadDoNotPileUp() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let pid = try #require(haul.process?.pid)
            let before = Self.residentMiB(pid)
            // 40 batches of 17,500 calls: 15 MB of answer each, 600 MB if every one were answered.
            let attacker = try Self.attack(["unread", haul.url, "--batches", "40", "--calls", "17500"])
            defer { attacker.closeStdin() }
            try await attacker.waitForOutput(containing: "SENT", timeout: .seconds(30))
            #expect(try await Self.probe(haul) == [200, 200, 200, 200, 200], "getVersion answered during the attack")
            let grown = Self.residentMiB(pid) - before
            #expect(grown < 120, "the daemon grew \(grown) MiB for replies nobody reads")
        }

        @Test func outOfDescriptorsTheOwnersSocketStillAnswersAndNothingSpins() async throws {
            let run = try HaulRun()
            let secret = Aria2Haul.randomSecret()
            let file = run.root.file("rpc-secret.txt")
            _ = FileManager.default.createFile(atPath: file, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
            // systemd's default for user units.
            let process = try HaulProcess(
                URL(fileURLWithPath: "/usr/bin/prlimit"),
                arguments: ["--nofile=1024:1024", "--", try HaulProcess.binary(named: "haul").path, "--headless", "--keep-running",
                            "--rpc-listen", "0", "--rpc-secret-file", file, "--state-dir", run.state, "-d", run.downloads])
            let haul = Aria2Haul(run: run, process: process, port: try await Aria2Haul.listenerPort(process), secret: secret)
            let attacker = try Self.attack(["idle", haul.url, "--count", "1100"])
            defer { attacker.closeStdin() }
            let opened = try await attacker.waitForOutput(containing: "OPEN", timeout: .seconds(60))
            let closed = opened.split(separator: " ").last.flatMap { Int($0) } ?? 0
            #expect(closed >= 1100 - 256, "the listener kept too many connections: \(opened)")

            #expect(try await Self.probe(haul, overSocket: true) == [200, 200, 200, 200, 200], "getVersion over the owner's socket")
            // With nothing to answer, the daemon does no work: CPU time it uses in an idle window is its own spinning,
            // and a busy machine can only give it less. (The window is a span to count in, not a wait for anything.)
            let cpuBefore = Self.cpuSeconds(process.pid)
            try await Task.sleep(for: .seconds(1))
            let used = Self.cpuSeconds(process.pid) - cpuBefore
            #expect(used < 0.2, "the daemon used \(used) s of CPU in a second with only idle connections held")
            let (listed, _, _) = try await run.run(["list"], timeout: .seconds(5))
            #expect(listed == 0)
        }

        @Test func aShortSecretIsRefused() async throws {
            let run = try HaulRun()
            let file = run.root.file("short-secret")
            _ = FileManager.default.createFile(atPath: file, contents: Data("ab\n".utf8), attributes: [.posixPermissions: 0o600])
            let (status, _, err) = try await run.run(
                ["--headless", "--keep-running", "--rpc-listen", "0", "--rpc-secret-file", file], timeout: .seconds(20))
            #expect(status != 0)
            #expect(err.contains("has 2 characters; use at least 16"), "\(err)")
        }
    }
}
