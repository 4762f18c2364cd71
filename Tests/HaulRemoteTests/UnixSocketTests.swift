import Foundation
import HaulRemote
import HaulTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Control socket")
struct UnixSocketTests {
    @Test("the socket is created with mode 0600 and removed on shutdown")
    func modeAndRemoval() async throws {
        let fixture = try ServerFixture()
        try await fixture.server.start()
        let mode = try #require(fileMode(fixture.socketPath))
        #expect(mode.isSocket)
        #expect(mode.permissions == 0o600)
        await fixture.server.shutdown()
        #expect(fileMode(fixture.socketPath) == nil)
    }

    @Test("a stale socket left at the path is replaced, and the new owner answers")
    func staleSocketReplaced() async throws {
        let fixture = try ServerFixture()
        try makeStaleSocket(at: fixture.socketPath)
        #expect(fileMode(fixture.socketPath)?.isSocket == true)
        try await fixture.serving {
            let reply = try await RemoteClient(socketPath: fixture.socketPath, timeout: .seconds(30)).post(Array(#"{"ping":1}"#.utf8))
            #expect(reply.status == 200)
            #expect(String(decoding: reply.body, as: UTF8.self) == #"{"ping":1}"#)
            #expect(fixture.service.callers == [RPCCaller(transport: .localSocket)])
        }
    }

    @Test("a regular file at the socket path is not deleted; start fails")
    func regularFileKept() async throws {
        let fixture = try ServerFixture()
        try Data("keep".utf8).write(to: URL(fileURLWithPath: fixture.socketPath))
        await #expect(throws: RPCServerError.self) { try await fixture.server.start() }
        #expect(try String(contentsOfFile: fixture.socketPath, encoding: .utf8) == "keep")
    }

    @Test("the client reports no owner, at once, for a stale socket and for a missing one")
    func noOwner() async throws {
        let directory = try TemporaryDirectory(prefix: "haul-rpc")
        let stale = directory.file("stale.sock")
        try makeStaleSocket(at: stale)
        for path in [stale, directory.file("missing.sock")] {
            // noOwner, not timedOut: the answer comes from the refused connect, not from waiting out the 30 s.
            await #expect(throws: RemoteClientError.noOwner(path: path)) {
                _ = try await RemoteClient(socketPath: path, timeout: .seconds(30)).post(Array("{}".utf8))
            }
        }
    }

    @Test("a call the owner does not answer in time ends with timedOut")
    func timeout() async throws {
        let fixture = try ServerFixture()
        try await fixture.serving {
            let client = RemoteClient(socketPath: fixture.socketPath, timeout: .milliseconds(300))
            // The service answers after three seconds: an error, not that answer, shows the timeout cut in first.
            await #expect(throws: RemoteClientError.timedOut(path: fixture.socketPath, after: .milliseconds(300))) {
                _ = try await client.post(Array("slow".utf8))
            }
        }
    }

    @Test("call encodes a JSON-RPC request")
    func call() async throws {
        let fixture = try ServerFixture()
        try await fixture.serving {
            let body = try await RemoteClient(socketPath: fixture.socketPath, timeout: .seconds(30)).call(method: "aria2.tellActive", params: [["gid"]])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            #expect(json["method"] as? String == "aria2.tellActive")
            #expect(json["jsonrpc"] as? String == "2.0")
            #expect((json["params"] as? [[String]]) == [["gid"]])
        }
    }

    @Test("curl posts over the socket, with any content type, and gets application/json-rpc")
    func curlOverSocket() async throws {
        let fixture = try ServerFixture()
        try await fixture.serving {
            let run = try await CurlRun.run(
                ["--unix-socket", fixture.socketPath, "-H", "Content-Type: text/plain", "-d", #"{"a":1}"#, "http://x/jsonrpc"],
                in: fixture.directory)
            #expect(run.status == 200)
            #expect(run.body == #"{"a":1}"#)
            #expect(run.header("Content-Type") == "application/json-rpc")
        }
    }

    @Test("another user cannot connect, even with the directory opened up; with the socket opened up they can",
          RootOnly.enabled("setpriv"))
    func otherUserRefused() async throws {
        try RootOnly.requireRoot(for: "setpriv")
        let fixture = try ServerFixture()
        try await fixture.serving {
            let asNobody = { () async throws -> (code: Int32, status: String) in
                let process = try HaulProcess(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    arguments: [
                        "--reuid=65534", "--regid=65534", "--clear-groups", CurlRun.path, "-s", "--max-time", "5",
                        "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", fixture.socketPath,
                        "-d", "{}", "http://x/jsonrpc",
                    ])
                let code = try await process.waitForExit(timeout: .seconds(30))
                return (code, process.stdoutText())
            }
            // The 0700 state directory.
            #expect(fileMode(fixture.directory.path)?.permissions == 0o700)
            var result = try await asNobody()
            #expect(result.code == 7, "curl as uid 65534 got through the 0700 directory: \(result)")
            // The socket's own mode, should the directory be opened up.
            #expect(chmod(fixture.directory.path, 0o755) == 0)
            result = try await asNobody()
            #expect(result.code == 7, "curl as uid 65534 got through the 0600 socket: \(result)")
            // The control: with the socket open to all, the same command gets an answer.
            #expect(chmod(fixture.socketPath, 0o666) == 0)
            result = try await asNobody()
            #expect(result.code == 0 && result.status == "200", "the control run failed, so the test proves nothing: \(result)")
        }
    }
}
