import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Aria2Conformance {
    /// The TCP listener's security list (issue 7), from the outside: tokens, the secret's secrecy, DNS rebinding, CORS, opt-in.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2SecurityTests {
        @Test func wrongOrMissingTokenIsUnauthorizedAfterADelay() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            async let wrong = haul.post(["jsonrpc": "2.0", "id": 1, "method": "aria2.tellActive", "params": ["token:guess"]])
            async let missing = haul.post(["jsonrpc": "2.0", "id": 2, "method": "aria2.tellActive", "params": []])
            async let noPrefix = haul.post(["jsonrpc": "2.0", "id": 3, "method": "aria2.tellActive", "params": [haul.secret]])
            for answer in try await [wrong, missing, noPrefix] {
                #expect(!(200..<300).contains(answer.status), "\(answer.status)")
                #expect(answer.error?["code"] as? Int == 1)
                #expect(answer.error?["message"] as? String == "Unauthorized")
                #expect(answer.elapsed >= 0.9, "answered after \(answer.elapsed) s")
                #expect(!answer.body.contains(haul.secret))
            }
            // The right token answers.
            #expect(try await haul.call("aria2.tellActive").status == 200)
        }

        @Test func theSecretIsNeverShown() async throws {
            let run = try HaulRun()
            let secret = Aria2Haul.randomSecret()
            let file = run.root.file("secret")
            _ = FileManager.default.createFile(atPath: file, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600])
            // The background form: `haul daemon` returns; its log is in the state directory.
            // Started through a launcher that closes every descriptor but 0-2 (see daemonLeavesTheLaunchersDescriptors).
            let daemon = try RPCClient.python([
                "-c", "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], close_fds=True).returncode)",
                try HaulProcess.binary(named: "haul").path, "daemon", "--rpc-listen", "0", "--rpc-secret-file", file,
                "--state-dir", run.state, "-d", run.downloads,
            ])
            let started = try await daemon.waitForExit(timeout: .seconds(30))
            let out = daemon.stderrText()
            #expect(started == 0, "\(out) \(daemon.stdoutText())")
            let pid = try #require(Self.pid(in: out), "haul daemon printed: \(out)")
            defer {
                if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
            }
            let logPath = run.state + "/haul.log"
            let port = try await eventuallyValue("the RPC note in the log", timeout: .seconds(10)) {
                Aria2Haul.port(in: (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
            }
            let haul = Aria2Haul(run: run, process: nil, port: port, secret: secret)

            _ = try await haul.result("aria2.addUri", [["http://127.0.0.1:9/nothing.bin"]])
            let global = try await haul.call("aria2.getGlobalOption")
            #expect(global.status == 200)
            #expect(!global.body.contains(secret))
            #expect((global.object?["result"] as? [String: Any])?.keys.contains { $0.contains("secret") } == false)
            let status = try await haul.call("aria2.tellActive")
            #expect(!status.body.contains(secret))
            _ = try await haul.call("aria2.getVersion", token: false)  // an unauthorized attempt, which is logged if anything is

            let cmdline = readProcFile("/proc/\(pid)/cmdline")
            #expect(cmdline.contains("--rpc-secret-file"), "this is the daemon: \(cmdline)")
            #expect(!cmdline.contains(secret))
            let (listed, listing, _) = try await run.run(["list"])
            #expect(listed == 0)
            #expect(!listing.contains(secret))
            let (_, json, _) = try await run.run(["list", "--json"])
            #expect(!json.contains(secret))

            let (stopped, _, stopErr) = try await run.run(["stop"], timeout: .seconds(30))
            #expect(stopped == 0, "\(stopErr)")
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            #expect(log.contains("aria2 JSON-RPC on"))
            #expect(!log.contains(secret), "the log shows the secret:\n\(log)")
        }

        @Test func aSecretIsCreatedWhenNoneIsGiven() async throws {
            let run = try HaulRun()
            let process = try HaulProcess(binary: "haul", arguments: [
                "--headless", "--keep-running", "--rpc-listen", "0", "--state-dir", run.state, "-d", run.downloads,
            ], environment: ["HAUL_RPC_SECRET": ""])
            let port = try await Aria2Haul.listenerPort(process)
            let secretPath = run.state + "/rpc-secret"
            let note = try await process.waitForOutput(containing: "RPC secret created in", timeout: .seconds(5))
            #expect(note.contains(secretPath), "it says where: \(note)")
            let attributes = try FileManager.default.attributesOfItem(atPath: secretPath)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let secret = try String(contentsOfFile: secretPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(secret.count >= 16)
            #expect(!process.stdoutText().contains(secret) && !process.stderrText().contains(secret))
            let haul = Aria2Haul(run: run, process: process, port: port, secret: secret)
            #expect(try await haul.call("aria2.getGlobalStat").status == 200)
            let unauthorized = try await haul.call("aria2.getGlobalStat", token: false)
            #expect(unauthorized.error?["message"] as? String == "Unauthorized")
            // HAUL_RPC_SECRET wins over the state directory's file.
            process.terminate()
            let fromEnvironment = try HaulProcess(binary: "haul", arguments: [
                "--headless", "--keep-running", "--rpc-listen", "0", "--state-dir", run.state, "-d", run.downloads,
            ], environment: ["HAUL_RPC_SECRET": "from-the-environment"])
            let second = Aria2Haul(run: run, process: fromEnvironment, port: try await Aria2Haul.listenerPort(fromEnvironment),
                                   secret: "from-the-environment")
            #expect(try await second.call("aria2.getGlobalStat").status == 200)
            let cmdline = readProcFile("/proc/\(fromEnvironment.pid)/cmdline")
            #expect(!cmdline.contains("from-the-environment"))
        }

        @Test func foreignHostIsRefused() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.addUri","params":["token:\#(haul.secret)",["http://127.0.0.1:9/x"]]}"#
            for host in ["evil.example:\(haul.port)", "evil.example", "127.0.0.1.evil.example:\(haul.port)", "localhost:\(haul.port + 1)"] {
                let answer = try await RPCClient.call(haul.url, body: body, headers: ["Host: \(host)", "Content-Type: text/plain"])
                #expect(answer.status == 403, "Host \(host) → \(answer.status) \(answer.body)")
                #expect(answer.object?["result"] == nil)
            }
            for host in ["127.0.0.1:\(haul.port)", "localhost:\(haul.port)"] {
                let answer = try await RPCClient.call(
                    haul.url, body: #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:\#(haul.secret)"]}"#,
                    headers: ["Host: \(host)"])
                #expect(answer.status == 200, "Host \(host) → \(answer.status)")
            }
            // A wrongly accepted add of port 9 would fail at once and sit with the stopped ones.
            #expect((try await haul.result("aria2.tellWaiting", [0, 10]) as? [Any])?.isEmpty == true, "nothing was added")
            #expect((try await haul.result("aria2.tellStopped", [0, 10]) as? [Any])?.isEmpty == true, "nothing was added")
        }

        @Test func corsOnlyForTheAllowedOrigin() async throws {
            let run = try HaulRun()
            let allowed = "http://ariang.local:8080"
            let haul = try await Aria2Haul.start(run, arguments: ["--rpc-allow-origin", allowed])
            let body = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:\#(haul.secret)"]}"#
            let fromAllowed = try await RPCClient.call(haul.url, body: body, headers: ["Origin: \(allowed)", "Content-Type: application/json"])
            #expect(fromAllowed.status == 200)
            #expect(fromAllowed.headers["access-control-allow-origin"] == allowed)
            let preflight = try await RPCClient.call(haul.url, method: "OPTIONS", headers: [
                "Origin: \(allowed)", "Access-Control-Request-Method: POST", "Access-Control-Request-Headers: content-type",
            ])
            #expect(preflight.headers["access-control-allow-origin"] == allowed)
            #expect(preflight.headers["access-control-allow-methods"]?.contains("POST") == true)
            for origin in ["http://evil.example", "null", "http://ariang.local:8081"] {
                let other = try await RPCClient.call(haul.url, body: body, headers: ["Origin: \(origin)", "Content-Type: application/json"])
                #expect(other.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") }, "\(origin): \(other.headers)")
                let otherPreflight = try await RPCClient.call(haul.url, method: "OPTIONS", headers: [
                    "Origin: \(origin)", "Access-Control-Request-Method: POST",
                ])
                #expect(otherPreflight.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") }, "\(origin): \(otherPreflight.headers)")
            }

            // Without --rpc-allow-origin, no origin gets CORS headers.
            let plainRun = try HaulRun()
            let plain = try await Aria2Haul.start(plainRun)
            let plainBody = #"{"jsonrpc":"2.0","id":1,"method":"aria2.getVersion","params":["token:\#(plain.secret)"]}"#
            let answer = try await RPCClient.call(plain.url, body: plainBody, headers: ["Origin: \(allowed)"])
            #expect(answer.status == 200)
            #expect(answer.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") }, "\(answer.headers)")
        }

        @Test func theTCPListenerIsOffUnlessAsked() async throws {
            let run = try HaulRun()
            let quiet = try run.start(["--headless", "--keep-running"])
            // The control socket answers once the owner serves; by then a listener would be open too.
            try await eventually("the control socket", timeout: .seconds(20)) {
                FileManager.default.fileExists(atPath: run.state + "/haul.sock")
            }
            let (listed, _, _) = try await run.run(["list"])
            #expect(listed == 0)
            #expect(listeningTCPPorts(pid: quiet.pid) == [], "no TCP port without --rpc-listen")
            #expect(!quiet.stdoutText().contains("JSON-RPC") && !quiet.stderrText().contains("JSON-RPC"))
            #expect(!FileManager.default.fileExists(atPath: run.state + "/rpc-secret"), "no secret made without a listener")
            quiet.terminate()

            // The same check sees the listener when it is asked for (and only that one, on loopback).
            let haul = try await Aria2Haul.start(try HaulRun())
            let ports = listeningTCPPorts(pid: try #require(haul.process).pid)
            #expect(ports == [haul.port], "listening on \(ports), RPC on \(haul.port)")
        }

        /// `haul daemon` returns to a launcher that watches a descriptor of its own for the end of its child, as
        /// Foundation's `Process` does (a socket pair whose other end the child inherits).
        @Test
        func daemonLeavesTheLaunchersDescriptors() async throws {
            let run = try HaulRun()
            let daemon = try run.start(["daemon"])
            let status = try await daemon.waitForExit(timeout: .seconds(10))
            #expect(status == 0)
            #expect(try await run.run(["stop"], timeout: .seconds(30)).0 == 0)
        }

        /// The pid of "haul: background haul running (pid N)".
        static func pid(in text: String) -> Int32? {
            guard let range = text.range(of: "(pid ") else { return nil }
            return Int32(text[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
