import Foundation
import HaulTestSupport
import Testing

/// Whether Debian's tinyproxy is installed (scripts/install-deps.sh installs it).
let tinyproxyAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy")

/// A real tinyproxy that wants credentials refuses haul's CONNECT: the task says the proxy refused the tunnel,
/// not that the server answered 407 (the proxy's answer was read as the server's).
@Suite(.timeLimit(.minutes(1)), .enabled(if: NginxFixture.isAvailable && tinyproxyAvailable, "nginx or tinyproxy is not installed"))
struct ProxyRefusalTests {
    static let tinyproxy = "/usr/bin/tinyproxy"

    @Test func aRefusedTunnelIsBlamedOnTheProxy() async throws {
        let nginx = try await NginxFixture.start(tls: true)
        defer { nginx.stop() }
        try nginx.write(file: "file.bin", bytes: Array(repeating: 7, count: 10_000))
        let run = try HaulRun()
        let port = try #require(LoopbackPort.free())
        let config = run.root.file("tinyproxy.conf")
        try """
            Port \(port)
            Listen 127.0.0.1
            Timeout 30
            Allow 127.0.0.1
            BasicAuth user s3cret
            ConnectPort \(nginx.port)
            LogLevel Error

            """.write(toFile: config, atomically: true, encoding: .utf8)
        let proxy = try HaulProcess(URL(fileURLWithPath: Self.tinyproxy), arguments: ["-d", "-c", config])
        defer { proxy.kill() }
        try await eventually("tinyproxy listens", timeout: .seconds(10)) { LoopbackPort.isAccepting(port) }

        let haul = try HaulProcess(
            binary: "haul",
            arguments: ["--headless", "--retries", "0", "--ca-cert", try #require(nginx.certificate), nginx.url("/file.bin"),
                        "--state-dir", run.state, "-d", run.downloads],
            environment: ["https_proxy": "http://127.0.0.1:\(port)"])
        let status = try await haul.waitForExit(timeout: .seconds(30))
        let text = haul.stdoutText() + haul.stderrText()
        #expect(status == 1, "\(text)")
        #expect(text.contains("the proxy refused the tunnel"), "\(text)")
        #expect(text.contains("407"), "\(text)")
        #expect(!text.contains("from 127.0.0.1"), "\(text)")
    }
}
