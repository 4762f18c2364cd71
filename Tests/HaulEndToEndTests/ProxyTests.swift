import Foundation
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Proxies with real parts (issue 14 §3, DESIGN §8): tinyproxy and microsocks carry the traffic and their own logs
/// prove it; `socks5h` leaves the name to the proxy; `--no-proxy` goes direct; the adding command's proxy
/// environment is the task's; bad proxy settings are refused with the value quoted and add no task; proxy
/// credentials never show.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(
        if: NginxFixture.isAvailable && TinyproxyFixture.isAvailable && MicrosocksFixture.isAvailable,
        "nginx, tinyproxy or microsocks is not installed"))
struct ProxyTests {
    static let size = 1 << 20
    static let proxyPassword = "pr0xy-s3cret"

    static func origin(seed: UInt64) async throws -> (NginxFixture, [UInt8]) {
        let nginx = try await NginxFixture.start()
        let bytes = LinkTests.bytes(Self.size, seed: seed)
        try nginx.write(file: "file.bin", bytes: bytes)
        return (nginx, bytes)
    }

    /// A loopback port nothing listens on: a proxy there refuses every connection.
    static func deadProxy() throws -> String {
        "http://127.0.0.1:\(try #require(LoopbackPort.free()))"
    }

    /// The secret must show in none of: the run's output, `haul list`, `haul list --json`.
    static func expectNoSecret(
        _ secret: String, in run: HaulRun, output: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(!output.contains(secret), "the run printed a secret: \(output)", sourceLocation: sourceLocation)
        let listings = try await run.listings()
        #expect(!listings.isEmpty, sourceLocation: sourceLocation)
        #expect(!listings.contains(secret), "haul list shows a secret: \(listings)", sourceLocation: sourceLocation)
    }

    @Test func anHTTPProxyCarriesTheDownloadAndItsLogSaysSo() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1411)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let run = try HaulRun()

        let (status, out, err) = try await run.download(["--headless", "--all-proxy", proxy.url, nginx.url("/file.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        let requests = try await eventuallyValue("tinyproxy's log of the request", timeout: .seconds(5)) {
            let found = proxy.requests().filter { $0.contains(nginx.url("/file.bin")) }
            return found.isEmpty ? nil : found
        }
        #expect(requests.allSatisfy { $0.hasPrefix("GET ") }, "\(requests)")
        // The origin saw every request come through tinyproxy.
        let entries = await nginx.entries { $0.contains { $0.status == 200 } }.filter { $0.uri == "/file.bin" }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.via?.contains("tinyproxy") == true }, "\(entries)")
    }

    @Test func anHTTPProxyThatWantsALoginGetsItFromTheProxyURLAndTheOriginNever() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1421)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start(extra: "BasicAuth alice \(Self.proxyPassword)")
        defer { proxy.stop() }
        let run = try HaulRun()

        let (refused, out, err) = try await run.download(
            ["--headless", "--retries", "0", "--all-proxy", proxy.url, "-o", "refused.bin", nginx.url("/file.bin")])
        #expect(refused != 0, "no login, no way through: \(out)\n\(err)")
        let withLogin = proxy.url.replacingOccurrences(of: "http://", with: "http://alice:\(Self.proxyPassword)@")
        let haul = try run.start(["--json", "--all-proxy", withLogin, nginx.url("/file.bin")])
        #expect(try await haul.waitForExit(timeout: .seconds(30)) == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("file.bin"), bytes)
        let entries = await nginx.entries { $0.contains { $0.status == 200 } }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.via?.contains("tinyproxy") == true && $0.authorization == nil }, "\(entries)")
        try await Self.expectNoSecret(Self.proxyPassword, in: run, output: haul.stdoutText() + haul.stderrText())
    }

    /// A Proxy-Authorization header given with -H is the proxy's: it opens tinyproxy's door, and the server sees
    /// it neither through the proxy nor when the download goes direct.
    @Test func aProxyAuthorizationHeaderGoesToTheProxyAlone() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1425)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start(extra: "BasicAuth alice \(Self.proxyPassword)")
        defer { proxy.stop() }
        let run = try HaulRun()
        let header = "Proxy-Authorization: Basic " + Data("alice:\(Self.proxyPassword)".utf8).base64EncodedString()

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "-H", header, "--all-proxy", proxy.url, nginx.url("/file.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        let (direct, out2, err2) = try await run.download(["--headless", "--retries", "0", "-H", header, "-o", "direct.bin", nginx.url("/file.bin")])
        #expect(direct == 0, "\(out2)\n\(err2)")
        expectSameBytes(run.file("direct.bin"), bytes)
        let entries = await nginx.entries { $0.filter { $0.status == 200 }.count >= 2 }
        #expect(entries.filter { $0.status == 200 }.count == 2, "\(entries)")
        #expect(entries.allSatisfy { $0.proxyAuthorization == nil }, "the server got the proxy's login: \(entries)")
        #expect(entries.filter { $0.via?.contains("tinyproxy") == true }.count == 1, "\(entries)")
        try await Self.expectNoSecret(Data("alice:\(Self.proxyPassword)".utf8).base64EncodedString(), in: run, output: out + err + out2 + err2)
    }

    @Test func anHTTPSDownloadGoesThroughTheProxysTunnel() async throws {
        let nginx = try await NginxFixture.start(tls: true)
        defer { nginx.stop() }
        let bytes = LinkTests.bytes(Self.size, seed: 1422)
        try nginx.write(file: "file.bin", bytes: bytes)
        let proxy = try await TinyproxyFixture.start(extra: "ConnectPort \(nginx.port)")
        defer { proxy.stop() }
        let run = try HaulRun()

        let (status, out, err) = try await run.download(
            ["--headless", "--ca-cert", try #require(nginx.certificate), "--all-proxy", proxy.url, nginx.url("/file.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        try await eventually("tinyproxy's log of the tunnel", timeout: .seconds(5)) {
            proxy.requests().contains { $0.hasPrefix("CONNECT 127.0.0.1:\(nginx.port)") }
        }
    }

    /// An `https://` proxy (TLS to the proxy itself: nginx forwarding plain requests) whose certificate comes
    /// from a private CA, which `--ca-cert` names as it does for servers.
    @Test(.enabled(if: LinkTests.opensslAvailable, "openssl is not installed"))
    func anHTTPSProxyCarriesTheDownload() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1424)
        defer { nginx.stop() }
        let run = try HaulRun()
        let certificate = run.root.file("proxy-cert.pem")
        let key = run.root.file("proxy-key.pem")
        _ = try LinkTests.tool("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
        let port = try #require(LoopbackPort.free())
        let proxy = try await NginxFixture.start(http: """
            server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(certificate);
                ssl_certificate_key \(key);
                location / {
                    proxy_pass http://$http_host$uri$is_args$args;
                    proxy_set_header Via "1.1 haul-https-proxy";
                }
            }
            """)
        defer { proxy.stop() }
        try await eventually("the https proxy listens", timeout: .seconds(5)) { LoopbackPort.isAccepting(port) }

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "--ca-cert", certificate, "--all-proxy", "https://127.0.0.1:\(port)", nginx.url("/file.bin")])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        let entries = await nginx.entries { $0.contains { $0.status == 200 } }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.via == "1.1 haul-https-proxy" }, "\(entries)")
    }

    @Test func aSOCKS5ProxyWithCredentialsCarriesTheDownloadAndTheCredentialsNeverShow() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1412)
        defer { nginx.stop() }
        let socks = try await MicrosocksFixture.start(user: "alice", password: Self.proxyPassword)
        defer { socks.stop() }
        let run = try HaulRun()

        let haul = try run.start(["--json", "--all-proxy", socks.url(), nginx.url("/file.bin")])
        let status = try await haul.waitForExit(timeout: .seconds(30))
        #expect(status == 0, "\(haul.stderrText())")
        expectSameBytes(run.file("file.bin"), bytes)
        // socks5:// resolves locally: the proxy was asked for the address.
        #expect(socks.connections().contains("127.0.0.1:\(nginx.port)"), "\(socks.output())")
        try await Self.expectNoSecret(Self.proxyPassword, in: run, output: haul.stdoutText() + haul.stderrText())

        // The proxy really is in the way: a wrong password, then a proxy that is gone, and nothing arrives.
        let before = nginx.accessEntries().count
        let wrong = "socks5://alice:b4d-pa55@127.0.0.1:\(socks.port)"
        let (refused, out, err) = try await run.download(["--headless", "--retries", "0", "--all-proxy", wrong, "-o", "again.bin", nginx.url("/file.bin")])
        #expect(refused != 0, "\(out)\n\(err)")
        #expect(!(out + err).contains("b4d-pa55"), "\(out)\n\(err)")
        socks.stop()
        let (gone, out2, err2) = try await run.download(["--headless", "--retries", "0", "--all-proxy", socks.url(), "-o", "third.bin", nginx.url("/file.bin")])
        #expect(gone != 0, "\(out2)\n\(err2)")
        #expect(!(out2 + err2).contains(Self.proxyPassword), "\(out2)\n\(err2)")
        #expect(nginx.accessEntries().count == before, "a request went around the proxy")
        #expect(run.file("again.bin") == nil && run.file("third.bin") == nil)
    }

    @Test func socks5hLeavesTheNameToTheProxy() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1413)
        defer { nginx.stop() }
        let socks = try await MicrosocksFixture.start(user: "alice", password: Self.proxyPassword)
        defer { socks.stop() }
        let run = try HaulRun()
        let link = "http://localhost:\(nginx.port)/file.bin"

        let (status, out, err) = try await run.download(["--headless", "--all-proxy", socks.url(scheme: "socks5h"), link])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        // The proxy was asked for the name, not for an address haul looked up.
        #expect(socks.connections() == ["localhost:\(nginx.port)"], "\(socks.output())")
        #expect(!(out + err).contains(Self.proxyPassword))

        // The same link through socks5:// reaches the proxy as an address.
        let (again, out2, err2) = try await run.download(["--headless", "--all-proxy", socks.url(), "-o", "again.bin", link])
        #expect(again == 0, "\(out2)\n\(err2)")
        #expect(socks.connections().dropFirst().allSatisfy { $0 != "localhost:\(nginx.port)" }, "\(socks.output())")
    }

    /// A name only the proxy's /etc/hosts knows (microsocks in a private mount namespace): socks5h reaches it,
    /// socks5 cannot.
    @Test(RootOnly.enabled("a private mount namespace"))
    func socks5hReachesANameOnlyTheProxyCanResolve() async throws {
        try MicrosocksFixture.requireNamespaces()
        let (nginx, bytes) = try await Self.origin(seed: 1414)
        defer { nginx.stop() }
        let socks = try await MicrosocksFixture.start(hosts: ["only-at-proxy.haul.test"])
        defer { socks.stop() }
        let run = try HaulRun()
        let link = "http://only-at-proxy.haul.test:\(nginx.port)/file.bin"

        let (status, out, err) = try await run.download(["--headless", "--all-proxy", socks.url(scheme: "socks5h"), link])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        #expect(socks.connections() == ["only-at-proxy.haul.test:\(nginx.port)"], "\(socks.output())")

        let (local, out2, err2) = try await run.download(
            ["--headless", "--retries", "0", "--all-proxy", socks.url(), "-o", "local.bin", link])
        #expect(local != 0, "socks5:// resolves here, where the name is unknown: \(out2)\n\(err2)")
    }

    @Test func noProxyHostsGoDirectPastAProxyThatRefusesEverything() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1415)
        defer { nginx.stop() }
        let run = try HaulRun()
        let proxy = try Self.deadProxy()

        // The proxy is in force: without --no-proxy nothing arrives.
        let (refused, out, err) = try await run.download(
            ["--headless", "--retries", "0", "--all-proxy", proxy, "-o", "refused.bin", nginx.url("/file.bin")])
        #expect(refused != 0, "\(out)\n\(err)")
        #expect(nginx.accessEntries().isEmpty)

        let (status, out2, err2) = try await run.download(
            ["--headless", "--retries", "0", "--all-proxy", proxy, "--no-proxy", "localhost,127.0.0.1", nginx.url("/file.bin")])
        #expect(status == 0, "\(out2)\n\(err2)")
        expectSameBytes(run.file("file.bin"), bytes)
    }

    @Test func theProxyEnvironmentOfTheAddingCommandIsTheTasks() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1416)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start(extra: "BasicAuth alice \(Self.proxyPassword)")
        defer { proxy.stop() }
        let run = try HaulRun()

        // Queued from a shell whose http_proxy is tinyproxy (with its login); run from one without any proxy variable.
        let withLogin = proxy.url.replacingOccurrences(of: "http://", with: "http://alice:\(Self.proxyPassword)@")
        let add = try run.start(["add", nginx.url("/file.bin")], environment: ["http_proxy": withLogin])
        #expect(try await add.waitForExit(timeout: .seconds(20)) == 0, "\(add.stderrText())")
        let (status, out, err) = try await run.download(["--headless"], environment: [:])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        let requests = try await eventuallyValue("tinyproxy's log of the request", timeout: .seconds(5)) {
            let found = proxy.requests().filter { $0.contains(nginx.url("/file.bin")) }
            return found.isEmpty ? nil : found
        }
        #expect(!requests.isEmpty)
        try await Self.expectNoSecret(Self.proxyPassword, in: run, output: out + err + add.stdoutText() + add.stderrText())
    }

    @Test func aTaskQueuedWithoutAProxyIgnoresTheRunnersProxyEnvironment() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1417)
        defer { nginx.stop() }
        let run = try HaulRun()
        let add = try run.start(["add", nginx.url("/file.bin")], environment: [:])
        #expect(try await add.waitForExit(timeout: .seconds(20)) == 0, "\(add.stderrText())")
        // The runner's own http_proxy leads nowhere; the task was queued without one and goes direct.
        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0"], environment: ["http_proxy": try Self.deadProxy()])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
    }

    @Test func theRunsOwnProxyEnvironmentIsHonouredAsCurlDoes() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1418)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let run = try HaulRun()

        let (status, out, err) = try await run.download(
            ["--headless", nginx.url("/file.bin")], environment: ["http_proxy": proxy.url])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), bytes)
        try await eventually("tinyproxy's log of the request", timeout: .seconds(5)) {
            proxy.requests().contains { $0.contains(nginx.url("/file.bin")) }
        }
        // no_proxy in the environment sends the host direct, past a proxy that refuses everything.
        let (direct, out2, err2) = try await run.download(
            ["--headless", "--retries", "0", "-o", "direct.bin", nginx.url("/file.bin")],
            environment: ["http_proxy": try Self.deadProxy(), "no_proxy": "127.0.0.1"])
        #expect(direct == 0, "\(out2)\n\(err2)")
        expectSameBytes(run.file("direct.bin"), bytes)
    }

    @Test func anInputFileLineTakesItsOwnProxy() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1419)
        defer { nginx.stop() }
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let socks = try await MicrosocksFixture.start(user: "alice", password: Self.proxyPassword)
        defer { socks.stop() }
        let run = try HaulRun()
        let list = run.root.file("links.txt")
        try """
            \(nginx.url("/file.bin"))
              out=via-http.bin
              all-proxy=\(proxy.url)
            \(nginx.url("/file.bin"))
              out=via-socks.bin
              all-proxy=\(socks.url())
            \(nginx.url("/file.bin"))
              out=direct.bin
              all-proxy=\(try Self.deadProxy())
              no-proxy=127.0.0.1

            """.write(toFile: list, atomically: true, encoding: .utf8)

        let (status, out, err) = try await run.download(["--headless", "--retries", "0", "-i", list])
        #expect(status == 0, "\(out)\n\(err)")
        for name in ["via-http.bin", "via-socks.bin", "direct.bin"] { expectSameBytes(run.file(name), bytes, name) }
        try await eventually("tinyproxy's log of one request", timeout: .seconds(5)) {
            proxy.requests().filter { $0.contains(nginx.url("/file.bin")) }.count == 1
        }
        #expect(socks.connections() == ["127.0.0.1:\(nginx.port)"], "\(socks.output())")
        try await Self.expectNoSecret(Self.proxyPassword, in: run, output: out + err)
    }

    @Test(arguments: [
        ("http://127.0.0.1:12ab", "127.0.0.1:12ab"),
        ("ftp://127.0.0.1:2121", "ftp"),
        ("gopher://127.0.0.1:70", "gopher"),
        ("http://alice:pr0xy-s3cret@127.0.0.1:99999", "127.0.0.1:99999"),
    ])
    func aBadProxyIsRefusedWithTheValueQuotedAndAddsNoTask(proxy: String, quoted: String) async throws {
        let run = try HaulRun()
        // A task already queued, which a refused command must leave as it is.
        #expect(try await run.download(["add", "-o", "kept.bin", "http://127.0.0.1:9/kept.bin"]).0 == 0)
        for command in [["--headless"], ["add"]] {
            let (status, out, err) = try await run.download(command + ["--all-proxy", proxy, "http://127.0.0.1:9/file.bin"])
            #expect(status != 0, "\(command): \(out)\n\(err)")
            #expect(err.contains(quoted), "\(command): \(err)")
            #expect(!(out + err).contains(Self.proxyPassword), "\(command): \(err)")
        }
        // A bad line in an input file: the same refusal, and none of the file's tasks is queued.
        let list = run.root.file("links.txt")
        try "http://127.0.0.1:9/good.bin\nhttp://127.0.0.1:9/bad.bin\n  all-proxy=\(proxy)\n"
            .write(toFile: list, atomically: true, encoding: .utf8)
        let (status, out, err) = try await run.download(["add", "-i", list])
        #expect(status != 0, "\(out)\n\(err)")
        #expect(err.contains(quoted), "\(err)")
        #expect(!(out + err).contains(Self.proxyPassword), "\(err)")
        let rows = try await run.list()
        #expect(rows.count == 1 && rows.first?["state"] as? String == "waiting", "a task was added or lost: \(rows)")
    }

    @Test func aProxyOverRPCCarriesTheDownload() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1420)
        defer { nginx.stop() }
        let socks = try await MicrosocksFixture.start(user: "alice", password: Self.proxyPassword)
        defer { socks.stop() }
        let run = try HaulRun()
        let haul = try await Aria2Haul.start(run)
        defer { haul.process?.terminate() }

        let gid = try #require(try await haul.result("aria2.addUri", [[nginx.url("/file.bin")], ["all-proxy": socks.url()]]) as? String)
        try await eventually("the download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await haul.status(gid, ["status"])["status"] as? String == "complete"
        }
        expectSameBytes(run.file("file.bin"), bytes)
        #expect(socks.connections() == ["127.0.0.1:\(nginx.port)"], "\(socks.output())")
        // The answers about the task do not give the proxy's password away.
        let options = try await haul.call("aria2.getOption", [gid])
        #expect(!options.body.contains(Self.proxyPassword), "\(options.body)")
        let status = try await haul.call("aria2.tellStatus", [gid])
        #expect(!status.body.contains(Self.proxyPassword), "\(status.body)")

        // no-proxy over RPC: past a proxy that refuses everything.
        let direct = try #require(try await haul.result("aria2.addUri", [
            [nginx.url("/file.bin")], ["all-proxy": try Self.deadProxy(), "no-proxy": "127.0.0.1", "out": "direct.bin"],
        ]) as? String)
        try await eventually("the direct download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await haul.status(direct, ["status"])["status"] as? String == "complete"
        }
        expectSameBytes(run.file("direct.bin"), bytes)
        #expect(socks.connections().count == 1, "\(socks.output())")
    }

    /// A background haul runs the task with its proxy and cookies, but keeps their secrets off its command line
    /// (which every local user can read) and out of its log.
    @Test func aDaemonKeepsProxyAndCookieSecretsOffItsCommandLineAndOutOfItsLog() async throws {
        let (nginx, bytes) = try await Self.origin(seed: 1423)
        defer { nginx.stop() }
        let socks = try await MicrosocksFixture.start(user: "alice", password: Self.proxyPassword)
        defer { socks.stop() }
        let run = try HaulRun()
        let cookieValue = "d43mon-c00kie"
        let cookies = run.root.file("cookies.txt")
        try (["127.0.0.1", "FALSE", "/", "FALSE", "0", "session", cookieValue].joined(separator: "\t") + "\n")
            .write(toFile: cookies, atomically: true, encoding: .utf8)

        let daemon = try await BackgroundDaemon(
            run, ["--all-proxy", socks.url(), "--load-cookies", cookies, nginx.url("/file.bin"), "-d", run.downloads])
        defer { daemon.kill() }
        let cmdline = readProcFile("/proc/\(daemon.pid)/cmdline")
        #expect(cmdline.contains("--keep-running"), "this is the daemon: \(cmdline)")
        #expect(!cmdline.contains(Self.proxyPassword), "\(cmdline)")
        try await eventually("the download to complete", timeout: .seconds(20), poll: .milliseconds(100)) {
            try await run.list().first?["state"] as? String == "completed"
        }
        expectSameBytes(run.file("file.bin"), bytes)
        #expect(socks.connections() == ["127.0.0.1:\(nginx.port)"], "\(socks.output())")
        let entries = await nginx.entries { $0.contains { $0.status == 200 } }
        #expect(!entries.isEmpty && entries.allSatisfy { $0.cookie == "session=\(cookieValue)" }, "\(entries)")
        let (stopped, _, _) = try await run.run(["stop"], timeout: .seconds(30))
        #expect(stopped == 0)
        let log = (try? String(contentsOfFile: run.state + "/haul.log", encoding: .utf8)) ?? ""
        #expect(!log.isEmpty)
        #expect(!log.contains(Self.proxyPassword) && !log.contains(cookieValue), "\(log)")
        try await Self.expectNoSecret(Self.proxyPassword, in: run, output: daemon.messages)
        #expect(!(try await run.listings()).contains(cookieValue))
    }
}
