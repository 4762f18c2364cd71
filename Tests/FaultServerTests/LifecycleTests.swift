import FaultServer
import Foundation
import HaulTestSupport
import Testing

/// Connections, stopping, lifetime, ad-hoc query plans and the `haul-fault-server` command.
@Suite struct LifecycleTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let curl = try Curl()
        let server = try FaultServer(lifetime: .seconds(60))
        defer { server.stop() }
        server.route("/a", .file(size: 1_000, seed: 1))
        server.route("/b", .file(size: 2_000, seed: 2))
        // One curl run with two URLs reuses the connection.
        let result = try await curl.fetch(server.url("/a"), options: ["-o", "/dev/null", server.url("/b")])
        #expect(result.exitCode == 0)
        #expect(server.stats("/a").requests == 1)
        #expect(server.stats("/b").requests == 1)
        #expect(server.connectionsAccepted == 1)
    }

    @Test func queryPlansNeedNoSwift() async throws {
        let curl = try Curl()
        let server = try FaultServer(lifetime: .seconds(60))
        defer { server.stop() }
        let full = try await curl.fetch(server.url("/gen/x.bin?size=64k&seed=5"))
        #expect(full.body == FaultPlan.Body.generated(size: 65_536, seed: 5).bytes())
        let dropped = try await curl.fetch(server.url("/gen/y.bin?size=10000&drop=4000"))
        #expect(dropped.exitCode == 18)
        #expect(dropped.body.count == 4_000)
        let again = try await curl.fetch(server.url("/gen/y.bin?size=10000&drop=4000"))
        #expect(again.exitCode == 0)
        let failing = try await curl.fetch(server.url("/gen/z.bin?size=10&fail=1&retryafter=2"))
        #expect(failing.status == 503)
        #expect(failing.header("Retry-After") == "2")
        let status = try await curl.fetch(server.url("/gen/s.bin?size=10&status=410"))
        #expect(status.status == 410)
        let noRange = try await curl.fetch(server.url("/gen/n.bin?size=100&norange=1"), headers: ["Range: bytes=5-"])
        #expect(noRange.status == 200)
        let named = try await curl.fetch(server.url("/gen/file?size=1&filename=%E9%9B%BB%E5%BD%B1.mp4"))
        #expect(named.header("Content-Disposition") == "attachment; filename*=UTF-8''%E9%9B%BB%E5%BD%B1.mp4")
        let missingSize = try await curl.fetch(server.url("/gen/q.bin"))
        #expect(missingSize.status == 400)
        #expect(server.stats("/gen/y.bin").requests == 2)
        #expect(server.stats("/gen/y.bin").bodyBytesSent == 14_000)
    }

    /// `/sent` tells what the server wrote from what its peers took: a client that asks for a large body and reads
    /// none of it takes what its receive buffer holds, the rest waits in the server's send buffer.
    @Test func theSentPageTellsWrittenBytesFromTakenOnes() async throws {
        let curl = try Curl()
        let server = try FaultServer(lifetime: .seconds(60))
        defer { server.stop() }
        server.route("/big", .file(size: 64 << 20, seed: 3))
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(client >= 0)
        defer { close(client) }
        var buffer: Int32 = 16 << 10
        setsockopt(client, SOL_SOCKET, SO_RCVBUF, &buffer, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(server.port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let request = Array("GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        #expect(send(client, request, request.count, 0) == request.count)
        let (written, untaken) = try await eventuallyValue("bytes waiting in the server's send buffer", timeout: .seconds(10)) {
            () async throws -> (Int64, Int64)? in
            let page = try await curl.fetch(server.url("/sent"))
            let fields = try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any]
            guard let written = fields?["bodyBytesSent"] as? Int64, let untaken = fields?["untaken"] as? Int64 else { return nil }
            return written > 0 && untaken > 0 ? (written, untaken) : nil
        }
        // What left holds in the client's small receive buffer (the kernel doubles what is asked, and TCP may take a
        // little more before it shrinks its window).
        #expect(written - untaken <= 256 << 10, "\(written - untaken) of \(written) bytes taken by a client that reads none")
    }

    @Test func stopEndsStalledConnectionsPromptly() async throws {
        let curl = try Curl()
        let server = try FaultServer(lifetime: .seconds(60))
        var plan = FaultPlan.file(size: 100_000, seed: 1)
        plan.stallAfter = 1_000
        server.route("/stall", plan)
        async let fetched = curl.fetch(server.url("/stall"))
        try await eventually("the stall to begin", timeout: .seconds(5)) { server.stats("/stall").bodyBytesSent == 1_000 }
        server.stop()
        let result = try await fetched
        // 18 (a body cut short), not 28 (curl's own timeout): stop cut the stalled connection.
        #expect(result.exitCode == 18)
        #expect(server.isStopped)
        #expect(!LoopbackPort.isAccepting(server.port))
    }

    @Test func lifetimeStopsTheServerByItself() async throws {
        let server = try FaultServer(lifetime: .milliseconds(200))
        #expect(LoopbackPort.isAccepting(server.port))
        try await eventually("the lifetime to end", timeout: .seconds(5)) { server.isStopped }
        try await eventually("the listener to close", timeout: .seconds(5)) { !LoopbackPort.isAccepting(server.port) }
    }

    @Test func commandPrintsItsURLsAndStopsOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let portFile = directory.file("port")
        let process = try HaulProcess(
            binary: "haul-fault-server", arguments: ["--demo", "--lifetime", "60", "--port-file", portFile])
        defer { process.terminate(SIGKILL, timeout: .seconds(1)) }
        let listening = try await process.waitForOutput(containing: "listening on http://127.0.0.1:", timeout: .seconds(10))
        try await process.waitForOutput(containing: "/demo/missing.bin", in: .stdout, timeout: .seconds(5))
        let port = try #require(UInt16(listening.split(separator: ":").last ?? ""))
        // The port file comes last: once it exists, the routes are installed and the URLs printed.
        let written = try await eventuallyValue("the port file", timeout: .seconds(5)) {
            try? String(contentsOfFile: portFile, encoding: .utf8)
        }
        #expect(written == "\(port)\n")
        let lines = process.stdoutLines()
        #expect(lines[1] == "demo urls:")
        #expect(lines.count == 9)
        #expect(lines.contains("http://127.0.0.1:\(port)/demo/%E9%9B%BB%E5%BD%B1.%E7%AC%AC01%E9%9B%86.mp4"))
        #expect(lines[3].hasPrefix("http://127.0.0.1:\(port)/hls/lecture/lecture.m3u8?"), "the stream second in the queue")
        let curl = try Curl()
        let list = try await curl.fetch("http://127.0.0.1:\(port)/demo/urls.txt")
        #expect(String(decoding: list.body, as: UTF8.self).split(separator: "\n").map(String.init) == Array(lines[2...]))
        let missing = try await curl.fetch("http://127.0.0.1:\(port)/demo/missing.bin")
        #expect(missing.status == 404)
        let head = try await curl.fetch("http://127.0.0.1:\(port)/demo/download.php", options: ["-I"])
        #expect(head.header("Content-Disposition")?.hasPrefix("attachment; filename*=UTF-8''") == true)
        process.kill(SIGTERM)
        #expect(try await process.waitForExit(timeout: .seconds(5)) == 0)
    }
}
