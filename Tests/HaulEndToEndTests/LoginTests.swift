import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Logins with real parts (issue 14 §3, DESIGN §8): nginx `auth_basic` serves a file to credentials in the link
/// and to `--netrc-file`; a redirect to another port or host gets no credentials (that server's own log says so);
/// the password never shows in `haul list` or JSON events.
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && LinkTests.opensslAvailable, "nginx or openssl is not installed"))
struct LoginTests {
    static let user = "alice"
    static let password = "op3n-s3same"
    static let size = 4 << 20

    /// A store on its own port that serves `/store/` to anyone (a presigned-URL host), throttled per connection
    /// so a segmented download uses several, and an origin whose `/private/` wants Basic credentials and whose
    /// `/go/NAME` and `/go-by-name/NAME` answer 302 to the store's `/store/NAME` (by address, by name).
    struct Servers {
        let origin: NginxFixture
        let store: NginxFixture
        let bytes: [UInt8]

        static func start(_ run: HaulRun, seed: UInt64) async throws -> Servers {
            let htpasswd = run.root.file("htpasswd")
            try LinkTests.htpasswdLine(user: LoginTests.user, password: LoginTests.password)
                .write(toFile: htpasswd, atomically: true, encoding: .utf8)
            let store = try await NginxFixture.start(locations: "location /store/ { limit_rate 1m; }")
            let origin = try await NginxFixture.start(locations: """
                location /private/ {
                    auth_basic "haul";
                    auth_basic_user_file \(htpasswd);
                }
                location /go/ {
                    rewrite ^/go/(.*)$ http://127.0.0.1:\(store.port)/store/$1 redirect;
                }
                location /go-by-name/ {
                    rewrite ^/go-by-name/(.*)$ http://localhost:\(store.port)/store/$1 redirect;
                }
                """)
            let bytes = LinkTests.bytes(LoginTests.size, seed: seed)
            try origin.write(file: "private/film.bin", bytes: bytes)
            try store.write(file: "store/film.bin", bytes: bytes)
            return Servers(origin: origin, store: store, bytes: bytes)
        }

        func stop() {
            origin.stop()
            store.stop()
        }

        /// `http://alice:PASSWORD@127.0.0.1:PORT/PATH` on the origin.
        func linkWithCredentials(_ path: String) -> String {
            origin.url(path).replacingOccurrences(of: "http://", with: "http://\(LoginTests.user):\(LoginTests.password)@")
        }
    }

    /// Every secret-free place a user or a program reads: the run's output, `haul list`, `haul list --json`.
    static func expectNoPassword(in run: HaulRun, output: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(!output.contains(password), "the run printed the password: \(output)", sourceLocation: sourceLocation)
        let listings = try await run.listings()
        #expect(!listings.isEmpty, sourceLocation: sourceLocation)
        #expect(!listings.contains(password), "haul list shows the password: \(listings)", sourceLocation: sourceLocation)
    }

    static func netrc(_ run: HaulRun, machine: String = "127.0.0.1") throws -> String {
        let path = run.root.file("netrc")
        try "machine \(machine) login \(user) password \(password)\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(chmod(path, 0o600) == 0)
        return path
    }

    @Test func credentialsInTheLinkOpenTheDoorAndNeverShow() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1431)
        defer { servers.stop() }

        // Without them the door stays shut.
        let (refused, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-o", "refused.bin", servers.origin.url("/private/film.bin")])
        #expect(refused != 0, "\(out)\n\(err)")
        #expect((out + err).contains("401"), "\(out)\n\(err)")

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", servers.linkWithCredentials("/private/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        let served = await servers.origin.entries { $0.contains { $0.uri == "/private/film.bin" && $0.status != 401 } }
            .filter { $0.uri == "/private/film.bin" && $0.status != 401 }
        #expect(!served.isEmpty && served.allSatisfy { $0.remoteUser == Self.user && [200, 206].contains($0.status) }, "\(served)")
        try await Self.expectNoPassword(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    /// The login forgotten: a 401, then `set-url` with the credentials in the link finishes it, and neither
    /// `set-url` nor the list shows the password.
    @Test func setURLWithALoginOpensTheDoorOfAFailedTask() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1430)
        defer { servers.stop() }
        let (refused, out, err) = try await run.download(["--headless", "--retries", "0", servers.origin.url("/private/film.bin")])
        #expect(refused != 0, "\(out)\n\(err)")
        #expect(try await run.list().first?["state"] as? String == "failed")

        let (status, setOut, setErr) = try await run.run(["set-url", "1", servers.linkWithCredentials("/private/film.bin")])
        #expect(status == 0, "\(setOut)\n\(setErr)")
        let (finished, out2, err2) = try await run.download(["--headless"])
        #expect(finished == 0, "\(out2)\n\(err2)")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        let served = await servers.origin.entries { $0.contains { $0.status == 200 } }.filter { $0.status == 200 }
        #expect(!served.isEmpty && served.allSatisfy { $0.remoteUser == Self.user }, "\(served)")
        try await Self.expectNoPassword(in: run, output: setOut + setErr + out2 + err2)
    }

    @Test func aNetrcFileOpensTheDoor() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1432)
        defer { servers.stop() }
        let netrc = try Self.netrc(run)

        let haul = try run.start(["--json", "--netrc-file", netrc, servers.origin.url("/private/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        let served = await servers.origin.entries { $0.contains { $0.uri == "/private/film.bin" && [200, 206].contains($0.status) } }
            .filter { $0.uri == "/private/film.bin" && [200, 206].contains($0.status) }
        #expect(!served.isEmpty && served.allSatisfy { $0.remoteUser == Self.user }, "\(servers.origin.accessEntries())")
        try await Self.expectNoPassword(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    /// curl's netrc rules as a seasoned user writes the file: other machines first, an entry over several lines,
    /// a quoted password with a space, a `default` entry last (not used: the machine has its own).
    @Test func aNetrcFileIsReadByCurlsRules() async throws {
        let run = try HaulRun()
        let htpasswd = run.root.file("htpasswd")
        try LinkTests.htpasswdLine(user: "bob", password: "two words").write(toFile: htpasswd, atomically: true, encoding: .utf8)
        let nginx = try await NginxFixture.start(locations: """
            location /private/ {
                auth_basic "haul";
                auth_basic_user_file \(htpasswd);
            }
            """)
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(1 << 20, seed: 1440)
        try nginx.write(file: "private/film.bin", bytes: bytes)
        let netrc = run.root.file("netrc")
        try """
            # logins
            machine files.example.org login someone password elsewhere

            machine 127.0.0.1
                login bob
                password "two words"

            default login anonymous password guest

            """.write(toFile: netrc, atomically: true, encoding: .utf8)
        #expect(chmod(netrc, 0o600) == 0)

        let (status, out, err) = try await run.download(["--headless", "--netrc-file", netrc, nginx.url("/private/film.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("film.bin"), bytes)
        let served = await nginx.entries { $0.contains { $0.status == 200 } }
        #expect(served.contains { $0.remoteUser == "bob" && $0.status == 200 }, "\(served)")
        #expect(!(out + err).contains("two words"))
    }

    @Test func aMissingNetrcFileIsRefusedWithItsPathAndAddsNoTask() async throws {
        let run = try HaulRun()
        let missing = run.root.file("no-such-netrc")
        for command in [["--headless"], ["add"]] {
            let (status, out, err) = try await run.download(command + ["--netrc-file", missing, "http://127.0.0.1:9/film.bin"])
            #expect(status != 0, "\(command): \(out)\n\(err)")
            #expect(err.contains(missing), "\(command): \(err)")
        }
        #expect(try await run.list().isEmpty, "a task was added")
    }

    @Test func anInputFileLineTakesItsOwnNetrcFile() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1439)
        defer { servers.stop() }
        let list = run.root.file("links.txt")
        try "\(servers.origin.url("/private/film.bin"))\n  netrc-file=\(try Self.netrc(run))\n  out=netrc.bin\n\(servers.origin.url("/private/film.bin"))\n  out=none.bin\n"
            .write(toFile: list, atomically: true, encoding: .utf8)

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "-i", list])
        #expect(status != 0, "the line without a login fails: \(out)\n\(err)")
        expectSameBytes(run.file("netrc.bin"), servers.bytes)
        #expect(run.file("none.bin") == nil)
        let states = try await run.list().sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }.map { $0["state"] as? String }
        #expect(states == ["completed", "failed"], "\(states)")
    }

    @Test func linkCredentialsDoNotFollowARedirectToAnotherPort() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1433)
        defer { servers.stop() }

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", servers.linkWithCredentials("/go/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        // The origin got the credentials; the store on the other port got none, on any connection.
        #expect(servers.origin.accessEntries().contains { $0.uri == "/go/film.bin" && $0.remoteUser == Self.user },
                "\(servers.origin.accessEntries())")
        let stored = try await eventuallyValue("the store's log", timeout: .seconds(5)) { () -> [NginxFixture.AccessEntry]? in
            let entries = servers.store.accessEntries()
            return entries.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size) ? entries : nil
        }
        #expect(stored.filter { $0.range != nil }.count >= 2, "several connections: \(stored)")
        #expect(stored.allSatisfy { $0.authorization == nil && $0.remoteUser == nil }, "credentials reached the store: \(stored)")
        try await Self.expectNoPassword(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    /// libcurl 7.88.1 sends a netrc login again after a redirect to another port of the same name (TECH_NOTES
    /// H.2f); DESIGN §8 counts another port as another host, as libcurl does for every other credential.
    @Test func netrcCredentialsDoNotFollowARedirectToAnotherPort() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1437)
        defer { servers.stop() }
        let netrc = try Self.netrc(run)

        let haul = try run.start(["--json", "--netrc-file", netrc, servers.origin.url("/go/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        #expect(servers.origin.accessEntries().contains { $0.uri == "/go/film.bin" && $0.remoteUser == Self.user },
                "netrc gave the origin its login: \(servers.origin.accessEntries())")
        let stored = try await eventuallyValue("the store's log", timeout: .seconds(5)) { () -> [NginxFixture.AccessEntry]? in
            let entries = servers.store.accessEntries()
            return entries.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size) ? entries : nil
        }
        #expect(stored.allSatisfy { $0.authorization == nil }, "the netrc login reached the other port: \(stored)")
    }

    @Test func netrcCredentialsDoNotFollowARedirectToAnotherHost() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1434)
        defer { servers.stop() }
        let netrc = try Self.netrc(run)

        let haul = try run.start(["--json", "-s", "4", "--min-split-size", "1M", "--netrc-file", netrc, servers.origin.url("/go-by-name/film.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("film.bin"), servers.bytes)
        #expect(servers.origin.accessEntries().contains { $0.uri == "/go-by-name/film.bin" && $0.remoteUser == Self.user },
                "netrc gave the origin its login: \(servers.origin.accessEntries())")
        let stored = try await eventuallyValue("the store's log", timeout: .seconds(5)) { () -> [NginxFixture.AccessEntry]? in
            let entries = servers.store.accessEntries()
            return entries.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(Self.size) ? entries : nil
        }
        #expect(stored.allSatisfy { $0.authorization == nil }, "credentials reached localhost: \(stored)")
    }

    /// Hooks' arguments are among the places a secret never goes (DESIGN §8): `--on-link-expired` is given the
    /// expired link without its credentials.
    @Test func theOnLinkExpiredCommandIsNotGivenTheLinksCredentials() async throws {
        let run = try HaulRun()
        let htpasswd = run.root.file("htpasswd")
        try LinkTests.htpasswdLine(user: Self.user, password: Self.password).write(toFile: htpasswd, atomically: true, encoding: .utf8)
        let nginx = try await ExpiringLinkTests.start(inside: "auth_basic \"haul\"; auth_basic_user_file \(htpasswd);")
        defer { nginx.stop() }
        try ExpiringLinkTests.publish(nginx, "film.bin", LinkTests.bytes(ExpiringLinkTests.size, seed: 1435))
        let calls = run.root.file("renewals.log")
        // The script gives no new link: the task fails once it has been asked.
        let script = try LinkTests.script(run.root.file("renew.sh"), "#!/bin/sh\necho \"$@\" >> '\(calls)'\nexit 1\n")

        let (haul, expired) = try await ExpiringLinkTests.outliveTheLink(
            nginx, run, extra: ["--on-link-expired", script], login: "\(Self.user):\(Self.password)")
        #expect(try await haul.waitForExit(timeout: .seconds(20)) == 1, "\(haul.stderrText())")
        #expect(await nginx.entries { $0.contains { $0.status == 403 } }.contains { $0.remoteUser == Self.user && $0.status == 403 },
                "the link's login went with the expired link")
        let called = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        #expect(called.hasPrefix("0000000000000001 http://"), "\(called)")
        #expect(called.contains(String(expired[expired.range(of: "@")!.upperBound...])), "\(called)")
        #expect(!called.contains(Self.password), "the hook was given the password: \(called)")
        try await Self.expectNoPassword(in: run, output: haul.stdoutText() + haul.stderrText())
    }

    @Test func aNetrcFileNamedOverRPCMustLieInAnAllowedDirectory() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1436)
        defer { servers.stop() }
        let allowed = run.root.file("allowed")
        try FileManager.default.createDirectory(atPath: allowed, withIntermediateDirectories: true)
        let outside = try Self.netrc(run)
        let inside = allowed + "/netrc"
        try FileManager.default.copyItem(atPath: outside, toPath: inside)
        let haul = try await Aria2Haul.start(run, arguments: ["--rpc-allowed-dir", allowed])
        defer { haul.process?.terminate() }

        let refused = try await haul.call("aria2.addUri", [[servers.origin.url("/private/film.bin")], ["netrc-path": outside]])
        #expect(refused.error != nil, "\(refused.body)")
        #expect((try await haul.result("aria2.tellWaiting", [0, 10]) as? [Any])?.isEmpty == true, "a task was added")

        let gid = try #require(try await haul.result(
            "aria2.addUri", [[servers.origin.url("/private/film.bin")], ["netrc-path": inside]]) as? String)
        try await eventually("the download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await haul.status(gid, ["status"])["status"] as? String == "complete"
        }
        expectSameBytes(run.file("film.bin"), servers.bytes)
        #expect(await servers.origin.entries { $0.contains { $0.status == 200 } }.contains { $0.remoteUser == Self.user && $0.status == 200 })
        let options = try await haul.call("aria2.getOption", [gid])
        #expect(!options.body.contains(Self.password), "\(options.body)")
    }

    /// RPC answers are among the places a secret never goes (DESIGN §8): not the link's password, not an
    /// Authorization or Cookie header given as an option.
    @Test func rpcAnswersNeverGiveALoginAway() async throws {
        let run = try HaulRun()
        let servers = try await Servers.start(run, seed: 1438)
        defer { servers.stop() }
        let haul = try await Aria2Haul.start(run)
        defer { haul.process?.terminate() }
        let cookie = "rpc-c00kie-99"

        let gid = try #require(try await haul.result("aria2.addUri", [
            [servers.linkWithCredentials("/private/film.bin")],
            ["header": ["Cookie: session=\(cookie)"]],
        ]) as? String)
        try await eventually("the download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await haul.status(gid, ["status"])["status"] as? String == "complete"
        }
        expectSameBytes(run.file("film.bin"), servers.bytes)
        #expect(await servers.origin.entries { $0.contains { $0.status == 200 } }
            .contains { $0.remoteUser == Self.user && $0.cookie == "session=\(cookie)" })
        var answers = [
            try await haul.call("aria2.tellStatus", [gid]), try await haul.call("aria2.getOption", [gid]),
            try await haul.call("aria2.getFiles", [gid]), try await haul.call("aria2.getUris", [gid]),
            try await haul.call("aria2.tellStopped", [0, 10]),
        ]
        answers.append(try await haul.call("aria2.getGlobalOption"))
        for answer in answers {
            #expect(!answer.body.contains(Self.password), "an RPC answer gives the password away: \(answer.body)")
            #expect(!answer.body.contains(cookie), "an RPC answer gives the cookie away: \(answer.body)")
        }
        // The answers were about this task: its link shows, without the password.
        #expect(answers[0].body.contains("/private/film.bin"), "\(answers[0].body)")
        #expect(answers[3].body.contains("/private/film.bin"), "\(answers[3].body)")
    }
}
