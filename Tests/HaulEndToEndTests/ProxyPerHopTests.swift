import Foundation
import HaulTestSupport
import Testing

/// The proxy is chosen for each hop of a redirect, as curl, wget and aria2c choose it (DESIGN §8): an http link
/// redirected to https uses `https_proxy` for the https hop and `http_proxy` (or none) for the http one, `no_proxy`
/// read for each hop's host, on the first connection and the extra range connections alike. Real tinyproxy (it logs
/// each request and marks it with Via) and microsocks (it logs each tunnel) carry the traffic.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(
        if: NginxFixture.isAvailable && TinyproxyFixture.isAvailable && MicrosocksFixture.isAvailable && LinkTests.opensslAvailable,
        "nginx, tinyproxy, microsocks or openssl is not installed"))
struct ProxyPerHopTests {
    static let size = 4 << 20

    /// An https server (throttled per connection, so a segmented download opens several) and an http origin whose
    /// `/tohttps/NAME` answers 302 to the https server's `/slow/NAME`.
    struct Servers {
        let origin: NginxFixture
        let secure: NginxFixture
        let bytes: [UInt8]

        static func start(seed: UInt64) async throws -> Servers {
            let secure = try await NginxFixture.start(tls: true, locations: "location /slow/ { limit_rate 1m; }")
            let origin = try await NginxFixture.start(locations: """
                location /tohttps/ {
                    rewrite ^/tohttps/(.*)$ https://127.0.0.1:\(secure.port)/slow/$1 redirect;
                }
                """)
            let bytes = LinkTests.bytes(ProxyPerHopTests.size, seed: seed)
            try secure.write(file: "slow/file.bin", bytes: bytes)
            return Servers(origin: origin, secure: secure, bytes: bytes)
        }

        func stop() {
            origin.stop()
            secure.stop()
        }

        var certificate: String { secure.certificate ?? "" }

        /// The https server's connections that served the file (nginx's connection serial numbers).
        func secureConnections() async -> Set<Int> {
            let entries = await secure.entries { entries in
                entries.filter { [200, 206].contains($0.status) }.reduce(0) { $0 + $1.bodyBytesSent } >= Int64(ProxyPerHopTests.size)
            }
            return Set(entries.filter { $0.uri == "/slow/file.bin" }.map(\.connection))
        }
    }

    /// Every connection to the https server went through microsocks: it made at least one tunnel there for each.
    static func expectEveryConnectionTunneled(
        _ socks: MicrosocksFixture, _ servers: Servers, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let connections = await servers.secureConnections()
        #expect(connections.count >= 2, "several connections: \(connections)", sourceLocation: sourceLocation)
        let target = "127.0.0.1:\(servers.secure.port)"
        // Its log is read through a pipe: bounded, then what it says is judged.
        _ = try? await eventually("microsocks' log of every tunnel", timeout: .seconds(5)) {
            socks.connections().filter { $0 == target }.count >= connections.count
        }
        let tunnels = socks.connections()
        #expect(tunnels.filter { $0 == target }.count >= connections.count,
                "a connection went past the proxy: \(connections.count) connections, tunnels \(tunnels)", sourceLocation: sourceLocation)
        #expect(tunnels.allSatisfy { $0 == target }, "the http hop went through https_proxy: \(tunnels)", sourceLocation: sourceLocation)
    }

    @Test func onlyHTTPSProxySetCarriesTheHTTPSHopAndNotTheHTTPOne() async throws {
        let servers = try await Servers.start(seed: 2411)
        defer { servers.stop() }
        let socks = try await MicrosocksFixture.start()
        defer { socks.stop() }
        let run = try HaulRun()

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-s", "4", "--min-split-size", "1M", "--ca-cert", servers.certificate,
             servers.origin.url("/tohttps/file.bin")],
            environment: ["https_proxy": socks.url()])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), servers.bytes)
        try await Self.expectEveryConnectionTunneled(socks, servers)
    }

    @Test func onlyHTTPProxySetCarriesTheHTTPHopAndTheHTTPSOneGoesDirect() async throws {
        let servers = try await Servers.start(seed: 2412)
        defer { servers.stop() }
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let run = try HaulRun()

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-s", "4", "--min-split-size", "1M", "--ca-cert", servers.certificate,
             servers.origin.url("/tohttps/file.bin")],
            environment: ["http_proxy": proxy.url])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), servers.bytes)
        let origin = await servers.origin.entries { $0.contains { $0.uri == "/tohttps/file.bin" } }
        #expect(!origin.isEmpty && origin.allSatisfy { $0.via?.contains("tinyproxy") == true }, "\(origin)")
        #expect(await servers.secureConnections().count >= 2)
        let requests = proxy.requests()
        #expect(requests.contains { $0.hasPrefix("GET \(servers.origin.url("/tohttps/file.bin"))") }, "\(requests)")
        #expect(!requests.contains { $0.hasPrefix("CONNECT") }, "the https hop went through http_proxy: \(requests)")
    }

    /// `no_proxy` is read for each hop's host: the http hop to localhost goes direct, the https hop to 127.0.0.1
    /// takes `https_proxy`, not the http hop's proxy.
    @Test func noProxyIsReadForEachHopsHost() async throws {
        let servers = try await Servers.start(seed: 2413)
        defer { servers.stop() }
        let proxy = try await TinyproxyFixture.start()
        defer { proxy.stop() }
        let socks = try await MicrosocksFixture.start()
        defer { socks.stop() }
        let run = try HaulRun()
        let link = "http://localhost:\(servers.origin.port)/tohttps/file.bin"

        let (status, out, err) = try await run.download(
            ["--headless", "--retries", "0", "-s", "4", "--min-split-size", "1M", "--ca-cert", servers.certificate, link],
            environment: ["http_proxy": proxy.url, "https_proxy": socks.url(), "no_proxy": "localhost"])
        #expect(status == 0, "\(out)\n\(err)")
        expectSameBytes(run.file("file.bin"), servers.bytes)
        try await Self.expectEveryConnectionTunneled(socks, servers)
        #expect(proxy.requests().isEmpty, "a hop went through http_proxy: \(proxy.requests())")
        let origin = await servers.origin.entries { $0.contains { $0.uri == "/tohttps/file.bin" } }
        #expect(!origin.isEmpty && origin.allSatisfy { $0.via == nil }, "\(origin)")
    }
}
