import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// The settings file through the built binary (DESIGN §10, issue 16 §1): a typo, a wrong type and a bad value
/// are usage errors naming file, line and key; `haul config` tells each setting's origin.
@Suite(.timeLimit(.minutes(1))) struct SettingsTests {
    /// Writes `text` as a settings file in the run's directory and returns its path.
    static func settingsFile(_ run: HaulRun, _ text: String, name: String = "config.toml") throws -> String {
        let path = run.root.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTypoIsAUsageErrorNamingFileLineAndTheNearestKey() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a.bin", .file(size: 1000))
        let run = try HaulRun()
        // The default place: $XDG_CONFIG_HOME/haul/config.toml.
        let config = run.root.path + "/xdg"
        try FileManager.default.createDirectory(atPath: config + "/haul", withIntermediateDirectories: true)
        try "# mine\ndir = \"\(run.downloads)\"\nmax-concurent = 4\n".write(toFile: config + "/haul/config.toml", atomically: true, encoding: .utf8)
        let haul = try HaulProcess(
            binary: "haul", arguments: ["--headless", server.url("/a.bin"), "--state-dir", run.state],
            environment: ["XDG_CONFIG_HOME": config])
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 2)
        #expect(haul.stderrText().contains("\(config)/haul/config.toml:3: unknown key 'max-concurent' (did you mean 'max-concurrent'?)"),
                "\(haul.stderrText())")
        #expect(server.stats("/a.bin").requests == 0, "nothing ran")
        #expect(try await run.list().isEmpty, "nothing was queued")

        let wrongType = try Self.settingsFile(run, "retries = \"five\"\n", name: "type.toml")
        let (typeStatus, _, typeError) = try await run.run(["config", "--config", wrongType])
        #expect(typeStatus == 2)
        #expect(typeError.contains("\(wrongType):1: key 'retries' must be a whole number, not a text"), "\(typeError)")

        let badValue = try Self.settingsFile(run, "\n\n[[rule]]\nhost = \"localhost\"\nsplit = 40\n", name: "value.toml")
        let (valueStatus, _, valueError) = try await run.run(["--headless", "--config", badValue, server.url("/a.bin")])
        #expect(valueStatus == 2)
        #expect(valueError.contains("\(badValue):5: key 'split' in [[rule]]: must be between 1 and 16, got 40"), "\(valueError)")

        let secret = try Self.settingsFile(run, "rpc-secret = \"hunter2-hunter2\"\n", name: "secret.toml")
        let (secretStatus, _, secretError) = try await run.run(["config", "--config", secret])
        #expect(secretStatus == 2)
        #expect(secretError.contains("\(secret):1: key 'rpc-secret' is not allowed here") && secretError.contains("rpc-secret-file"), "\(secretError)")
        #expect(!secretError.contains("hunter2"))
    }

    @Test func configTellsEachSettingsOrigin() async throws {
        let run = try HaulRun()
        let file = try Self.settingsFile(run, """
            # settings
            split = 8
            limit-rate = "1M"

            [[rule]]
            host = "*.example.org"
            split = 2
            """)
        let (status, out, err) = try await run.run(["config", "--json", "--config", file, "--limit-rate", "2M", "--retries", "1"])
        #expect(status == 0, "\(err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(object["file"] as? String == file)
        let settings = try #require(object["settings"] as? [[String: Any]])
        func entry(_ key: String) -> [String: Any]? { settings.first { $0["key"] as? String == key } }
        #expect(entry("split")?["value"] as? Int == 8 && entry("split")?["origin"] as? String == "\(file):2")
        #expect(entry("split")?["line"] as? Int == 2)
        #expect(entry("limit-rate")?["value"] as? String == "2M" && entry("limit-rate")?["origin"] as? String == "command line")
        #expect(entry("retries")?["value"] as? Int == 1 && entry("retries")?["origin"] as? String == "command line")
        #expect(entry("timeout")?["value"] as? Int == 30 && entry("timeout")?["origin"] as? String == "default")
        #expect(entry("theme")?["value"] is NSNull)
        #expect(settings.count > 25, "every key of a run")
        let rules = try #require(object["rules"] as? [[String: Any]])
        #expect(rules.count == 1 && rules[0]["host"] as? String == "*.example.org" && rules[0]["origin"] as? String == "\(file):5")
        // A field per key, not prose.
        #expect(rules[0]["split"] as? Int == 2 && rules[0]["description"] == nil, "\(rules)")

        let (plainStatus, plain, _) = try await run.run(["config", "--config", file, "-s", "3"])
        #expect(plainStatus == 0)
        let lines = plain.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("split ") && $0.contains(" 3 ") && $0.hasSuffix("command line") }, "\(plain)")
        #expect(lines.contains { $0.hasPrefix("limit-rate ") && $0.contains("\"1M\"") && $0.hasSuffix("\(file):3") }, "\(plain)")
        #expect(lines.contains { $0.hasPrefix("retries ") && $0.hasSuffix("default") }, "\(plain)")
        #expect(lines.contains { $0.hasPrefix("rule ") && $0.contains("*.example.org") && $0.contains("\(file):5") }, "\(plain)")
    }

    /// `haul config` shows rules and categories as the file wrote them: a field per key in JSON, the cap as "500K".
    @Test func configShowsRulesAndCategoriesAsWritten() async throws {
        let run = try HaulRun()
        let file = try Self.settingsFile(run, """
            [[rule]]
            host = "*.example.org"
            limit-rate = "500K"

            [[category]]
            extensions = ["mp4"]
            dir = "/srv/videos"
            """)
        let (status, out, err) = try await run.run(["config", "--json", "--config", file])
        #expect(status == 0, "\(err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let rule = try #require((object["rules"] as? [[String: Any]])?.first)
        #expect(rule["host"] as? String == "*.example.org" && rule["limit-rate"] as? String == "500K", "\(rule)")
        let category = try #require((object["categories"] as? [[String: Any]])?.first)
        #expect(category["extensions"] as? [String] == ["mp4"] && category["dir"] as? String == "/srv/videos", "\(category)")
        #expect(category["origin"] as? String == "\(file):5", "\(category)")
        let (plainStatus, plain, _) = try await run.run(["config", "--config", file])
        #expect(plainStatus == 0)
        #expect(plain.contains("limit-rate = \"500K\""), "\(plain)")
    }

    /// Every problem of the settings file is reported, not only the first.
    @Test func everyProblemOfTheFileIsReported() async throws {
        let run = try HaulRun()
        let file = try Self.settingsFile(run, "spilt = 3\nretries = \"x\"\n")
        let (status, _, err) = try await run.run(["config", "--config", file])
        #expect(status == 2)
        #expect(err.contains("\(file):1: unknown key 'spilt'") && err.contains("\(file):2: key 'retries'"), "\(err)")
    }

    @Test func configMasksTheProxyPassword() async throws {
        let run = try HaulRun()
        let file = try Self.settingsFile(run, "all-proxy = \"http://puser:CfgPW9@127.0.0.1:3128\"\n")
        let (status, out, err) = try await run.run(["config", "--config", file, "--header", "Authorization: Bearer HdrPW7"])
        #expect(status == 0, "\(err)")
        #expect(out.contains("\"http://127.0.0.1:3128\""), "\(out)")
        #expect(!out.contains("CfgPW9") && !out.contains("puser") && !out.contains("HdrPW7"), "\(out)")

        let (jsonStatus, json, jsonErr) = try await run.run(["config", "--json", "--config", file])
        #expect(jsonStatus == 0, "\(jsonErr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let settings = try #require(object["settings"] as? [[String: Any]])
        #expect(settings.first { $0["key"] as? String == "all-proxy" }?["value"] as? String == "http://127.0.0.1:3128")
        #expect(!json.contains("CfgPW9"), "\(json)")
    }

    @Test func theFilesSettingsRunAndTheCommandLineWins() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/a.bin", .file(size: 50_000, seed: 3))
        let run = try HaulRun()
        let elsewhere = run.root.path + "/elsewhere"
        let file = try Self.settingsFile(run, "dir = \"\(run.downloads)\"\n")
        let (status, _, err) = try await run.run(["--headless", "--config", file, server.url("/a.bin")])
        #expect(status == 0, "\(err)")
        #expect(run.file("a.bin")?.count == 50_000, "dir from the file")
        let (again, _, againErr) = try await run.run(["--headless", "--config", file, "-d", elsewhere, "-o", "b.bin", server.url("/a.bin")])
        #expect(again == 0, "\(againErr)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/b.bin"), "-d wins over the file")
    }
}
