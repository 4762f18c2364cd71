import Foundation
import HaulRemote
import HaulTestSupport
import Testing

@Suite("WebSocket")
struct WebSocketTests {
    @Test("a request gets its reply as a text message; binary is read as JSON; ping, delayed Unauthorized, close")
    func requestAndReply() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let port = try await fixture.port()
            let client = try WebSocketClient.start("echo", url: "ws://127.0.0.1:\(port)/jsonrpc", in: fixture.directory)
            #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
            #expect(WebSocketClient.field("reply", in: client) == [#"{"jsonrpc":"2.0","id":"1","method":"aria2.getVersion"}"#])
            #expect(WebSocketClient.field("binary-reply", in: client) == ["1", #"{"binary":1}"#])
            #expect(WebSocketClient.field("pong", in: client) == ["10", "p1"])
            // The bad secret's answer is held back (at least the second it is delayed), then sent whole.
            let unauthorized = try #require(WebSocketClient.field("unauthorized", in: client))
            #expect(Double(unauthorized[0]).map { $0 >= 0.9 } == true, "\(unauthorized)")
            #expect(unauthorized.dropFirst().joined(separator: " ") == String(decoding: EchoService.unauthorizedBody, as: UTF8.self))
            #expect(WebSocketClient.field("close", in: client) == ["8", "1000"])
            #expect(fixture.service.callers.allSatisfy { $0 == RPCCaller(transport: .tcp) })
        }
    }

    @Test("over the Unix socket too, as a local caller")
    func overUnixSocket() async throws {
        let fixture = try ServerFixture()
        try await fixture.serving {
            let client = try WebSocketClient.start(
                "echo", url: "ws://localhost/jsonrpc", options: ["--unix", fixture.socketPath], in: fixture.directory)
            #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
            #expect(WebSocketClient.field("reply", in: client)?.first?.contains("aria2.getVersion") == true)
            #expect(fixture.service.callers.first == RPCCaller(transport: .localSocket))
        }
    }

    @Test("every connected client gets each notification; its stream ends when it goes")
    func notificationsToEveryClient() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let url = "ws://127.0.0.1:\(try await fixture.port())/jsonrpc"
            let first = try WebSocketClient.start("listen", url: url, in: fixture.directory)
            let second = try WebSocketClient.start("listen", url: url, in: fixture.directory)
            for client in [first, second] { try await client.waitForOutput(containing: "ready", timeout: .seconds(30)) }
            try await eventually("two subscribers", timeout: .seconds(20)) { fixture.service.subscriberCount == 2 }
            let message = #"{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":"2089b05ecca3d829"}]}"#
            fixture.service.push(message)
            for client in [first, second] {
                #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
                #expect(WebSocketClient.field("notification", in: client) == [message])
                #expect(WebSocketClient.field("close", in: client) == ["8", "1000"])
            }
            try await eventually("streams cancelled", timeout: .seconds(20)) { fixture.service.subscriberCount == 0 }
        }
    }

    @Test("shutdown closes connected clients and ends their streams")
    func shutdownClosesClients() async throws {
        let fixture = try ServerFixture()
        try await fixture.server.start()
        let client = try WebSocketClient.start(
            "listen", url: "ws://localhost/jsonrpc", options: ["--unix", fixture.socketPath], in: fixture.directory)
        try await client.waitForOutput(containing: "ready", timeout: .seconds(30))
        try await eventually("one subscriber", timeout: .seconds(20)) { fixture.service.subscriberCount == 1 }
        await fixture.server.shutdown()
        #expect(try await client.waitForExit(timeout: .seconds(20)) == 0)
        #expect(WebSocketClient.field("gone", in: client) != nil, "\(client.stdoutText())")
        try await eventually("stream cancelled", timeout: .seconds(20)) { fixture.service.subscriberCount == 0 }
    }

    @Test("the handshake is refused with 403 for a foreign Host, 404 for another path")
    func handshakeChecks() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let port = try await fixture.port()
            let cases: [(url: String, options: [String], status: String)] = [
                ("ws://127.0.0.1:\(port)/jsonrpc", ["--host", "evil.example:\(port)"], "403"),
                ("ws://127.0.0.1:\(port)/other", [], "404"),
                ("ws://127.0.0.1:\(port)/jsonrpc", ["--host", "localhost:\(port)"], "101"),
            ]
            for (url, options, status) in cases {
                let client = try WebSocketClient.start("refused", url: url, options: options, in: fixture.directory)
                #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
                #expect(WebSocketClient.field("status", in: client) == [status], "\(url) \(options)")
            }
        }
    }

    @Test("a message over the size limit closes the connection with 1009")
    func messageTooBig() async throws {
        let fixture = try ServerFixture(tcp: true, maxRequestBytes: 1024)
        try await fixture.serving {
            let client = try WebSocketClient.start(
                "big", url: "ws://127.0.0.1:\(try await fixture.port())/jsonrpc", options: ["--size", "4096"],
                in: fixture.directory)
            #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
            #expect(WebSocketClient.field("close", in: client) == ["8", "1009"])
            #expect(fixture.service.callers.isEmpty)
        }
    }
}
