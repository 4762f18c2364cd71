import FaultServer
import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// AriaNg's settings pages read `getGlobalOption` and write with `changeGlobalOption`, values as strings
    /// (TECH_NOTES §I.1): haul answers every option it has under aria2's names, and takes every one that can change
    /// while it runs.
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2SettingsPagesTests {
        /// What AriaNg's pages list (`aria2GlobalAvailableOptions`) that haul has a value for.
        static let basic = ["dir", "max-concurrent-downloads", "check-integrity", "continue"]
        static let http = ["check-certificate", "http-accept-gzip", "http-auth-challenge", "http-no-cache", "enable-http-keep-alive",
                           "enable-http-pipelining", "use-head", "user-agent"]
        static let transfer = ["connect-timeout", "dry-run", "max-connection-per-server", "max-tries", "min-split-size", "proxy-method",
                               "split", "timeout", "max-download-limit", "max-overall-download-limit", "allow-overwrite",
                               "always-resume", "auto-file-renaming", "conditional-get", "remote-time"]

        @Test func everyPageShowsTheValuesHaulRunsWith() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run, arguments: ["-s", "6", "--limit-rate", "300K"])
            let global = try #require(try await haul.result("aria2.getGlobalOption") as? [String: Any])
            for key in Self.basic + Self.http + Self.transfer {
                #expect(global[key] is String, "\(key) missing: \(global.keys.sorted())")
            }
            #expect(global["split"] as? String == "6")
            #expect(global["max-download-limit"] as? String == "307200", "sizes in bytes")
            #expect(global["use-head"] as? String == "false" && global["enable-http-pipelining"] as? String == "false")
            #expect(global["user-agent"] as? String == "haul/0.1")
            #expect(global["rpc-secret"] == nil)
        }

        @Test func whatThePagesSetIsTakenAndReadBack() async throws {
            let server = try FaultServer()
            defer { server.stop() }
            var slow = FaultPlan.file(size: 4 << 20, seed: 93)
            slow.throttle = 64 << 10
            server.route("/after.bin", slow)
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            let changes: [String: String] = [
                "split": "8", "min-split-size": "8M", "max-connection-per-server": "12", "max-tries": "3", "timeout": "20",
                "user-agent": "Pages/1.0", "max-download-limit": "512K", "no-proxy": "example.org",
                "header": "X-Page: 1\nX-Other: 2", "enable-http-pipelining": "false",
            ]
            for (key, value) in changes.sorted(by: { $0.key < $1.key }) {
                #expect(try await haul.result("aria2.changeGlobalOption", [[key: value]]) as? String == "OK", "\(key)")
            }
            let global = try #require(try await haul.result("aria2.getGlobalOption") as? [String: Any])
            let expected: [String: String] = [
                "split": "8", "min-split-size": "8388608", "max-connection-per-server": "12", "max-tries": "3", "timeout": "20",
                "user-agent": "Pages/1.0", "max-download-limit": "524288", "no-proxy": "example.org", "header": "X-Page: 1\nX-Other: 2\n",
            ]
            for (key, value) in expected { #expect(global[key] as? String == value, "\(key): \(global[key] ?? "absent")") }

            // A download added now gets them.
            let gid = try #require(try await haul.result("aria2.addUri", [[server.url("/after.bin")], ["dir": run.downloads]]) as? String)
            let options = try #require(try await haul.result("aria2.getOption", [gid]) as? [String: Any])
            #expect(options["user-agent"] as? String == "Pages/1.0", "\(options)")
            #expect((options["header"] as? String)?.contains("X-Page: 1") == true, "\(options)")

            // Bad values and options that cannot change live are refused by name, and change nothing.
            for (key, value) in [("split", "abc"), ("split", "0"), ("min-split-size", "100K"), ("use-head", "true"),
                                 ("rpc-listen-port", "6801"), ("on-download-complete", "/bin/true"), ("dir", "/tmp"),
                                 ("ca-certificate", "/etc/ssl/certs/ca-certificates.crt"), ("load-cookies", "/etc/passwd"),
                                 ("netrc-path", "/root/.netrc"), ("header", "X-A: 1\r\nX-Injected: 2")] {
                let answer = try await haul.call("aria2.changeGlobalOption", [[key: value, "timeout": "25"]])
                #expect(answer.status == 400 && answer.body.contains("'--\(key)'"), "\(key)=\(value): \(answer.body)")
            }
            // A stall timeout libcurl would take as none at all (every download then stalls at once).
            let huge = try await haul.call("aria2.changeGlobalOption", [["timeout": "9223372036854775807"]])
            #expect(huge.status == 400 && huge.body.contains("at most 86400"), "\(huge.body)")
            let after = try #require(try await haul.result("aria2.getGlobalOption") as? [String: Any])
            #expect(after["timeout"] as? String == "20", "a refused call changes nothing")
        }
    }
}
