import Foundation
import HaulTestSupport
import Testing

/// The fixtures the proxy, login and cookie tests stand on, checked with the curl tool: when one of those tests
/// fails, these say whether the fault is haul's or the fixture's.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(
        if: NginxFixture.isAvailable && TinyproxyFixture.isAvailable && MicrosocksFixture.isAvailable
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
        "nginx, tinyproxy, microsocks or curl is not installed"))
struct ProxyFixtureTests {
    /// `curl -sS -o /dev/null -w %{http_code} ARGS`: the HTTP status, or nil when curl failed.
    static func curl(_ arguments: [String]) async throws -> Int? {
        let process = try HaulProcess(
            URL(fileURLWithPath: "/usr/bin/curl"),
            arguments: ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10"] + arguments,
            environment: ["no_proxy": "", "NO_PROXY": ""])
        guard try await process.waitForExit(timeout: .seconds(15)) == 0 else { return nil }
        return Int(process.stdoutText())
    }

    @Test func tinyproxyLogsTheRequestAndMarksItWithVia() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        try nginx.write(file: "f.bin", bytes: [1, 2, 3])
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        #expect(try await Self.curl(["-x", proxy.url, nginx.url("/f.bin")]) == 200)
        try await eventually("tinyproxy's log", timeout: .seconds(5)) { proxy.requests() == ["GET \(nginx.url("/f.bin")) HTTP/1.1"] }
        let entry = try await eventuallyValue("nginx's log", timeout: .seconds(5)) { nginx.accessEntries().first }
        #expect(entry.via?.contains("tinyproxy") == true, "\(entry)")
    }

    @Test func microsocksLogsWhatItWasAskedToReachAndWantsItsPassword() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        try nginx.write(file: "f.bin", bytes: [1, 2, 3])
        let socks = try await MicrosocksFixture.start(user: "u", password: "p")
        defer { socks.stop() }
        #expect(try await Self.curl(["-x", socks.url(scheme: "socks5h"), "http://localhost:\(nginx.port)/f.bin"]) == 200)
        #expect(try await Self.curl(["-x", socks.url(), "http://localhost:\(nginx.port)/f.bin"]) == 200)
        #expect(try await Self.curl(["-x", socks.url(credentials: false), nginx.url("/f.bin")]) == nil)
        try await eventually("microsocks's log", timeout: .seconds(5)) {
            socks.connections() == ["localhost:\(nginx.port)", "127.0.0.1:\(nginx.port)"]
        }
    }

    @Test(RootOnly.enabled("a private mount namespace"))
    func microsocksResolvesANameOnlyItKnows() async throws {
        try MicrosocksFixture.requireNamespaces()
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        try nginx.write(file: "f.bin", bytes: [1, 2, 3])
        let socks = try await MicrosocksFixture.start(hosts: ["only-at-proxy.haul.test"])
        defer { socks.stop() }
        let link = "http://only-at-proxy.haul.test:\(nginx.port)/f.bin"
        #expect(try await Self.curl(["-x", socks.url(scheme: "socks5h"), link]) == 200)
        #expect(try await Self.curl(["-x", socks.url(), link]) == nil)
    }

    @Test func nginxLogsCookiesAndTheBasicUser() async throws {
        let nginx = try await NginxFixture.start()
        defer { nginx.stop() }
        try nginx.write(file: "f.bin", bytes: [1, 2, 3])
        #expect(try await Self.curl(["-u", "alice:pw", "-b", "session=abc", "-H", "Proxy-Authorization: Basic eDp5", nginx.url("/f.bin")]) == 200)
        let entry = try await eventuallyValue("nginx's log", timeout: .seconds(5)) { nginx.accessEntries().first }
        #expect(entry.remoteUser == "alice")
        #expect(entry.authorization?.hasPrefix("Basic ") == true)
        #expect(entry.cookie == "session=abc")
        #expect(entry.via == nil)
        #expect(entry.proxyAuthorization == "Basic eDp5")
    }
}
