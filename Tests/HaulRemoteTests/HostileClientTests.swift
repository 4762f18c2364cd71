import Foundation
import HaulRemote
import HaulTestSupport
import Testing

/// Hostile clients against the real server (with the echo service): each attack is bounded, and a legitimate
/// client is still answered while it goes on.
@Suite("Hostile clients", .serialized, .timeLimit(.minutes(2)))
struct HostileClientTests {
    /// A legitimate request over TCP, or over the Unix socket; its time to answer.
    static func legitimate(_ fixture: ServerFixture, overSocket: Bool = false) async throws -> CurlRun {
        let target = overSocket ? ["--unix-socket", fixture.socketPath, "http://localhost/jsonrpc"] : [try await fixture.url()]
        return try await CurlRun.run(["-d", #"{"id":1,"method":"aria2.getVersion"}"#] + target, in: fixture.directory)
    }

    @Test("a client that pipelines requests and never reads is not read on without end, and is dropped")
    func unreadReplies() async throws {
        let fixture = try ServerFixture(tcp: true, stalledReaderTimeout: .seconds(2))
        try await fixture.serving {
            // 400 echoes of 64 KiB: 25 MiB of replies if every request were answered.
            let attacker = try RawClient.start(
                "unread", port: try await fixture.port(), options: ["--body", "65536", "--count", "400", "--seconds", "3"],
                in: fixture.directory)
            defer { attacker.closeStdin() }
            try await attacker.waitForOutput(containing: "sent", timeout: .seconds(20))
            let legit = try await Self.legitimate(fixture)
            #expect(legit.status == 200)
            let answered = fixture.service.callers.count - 1
            #expect(answered < 200, "answered \(answered) of 400 requests whose replies were never read")
            try await eventually("the client that never reads is dropped", timeout: .seconds(10)) {
                await fixture.server.openConnections.tcp == 0
            }
        }
    }

    @Test(
        "pipelined requests for large answers the client does not read wait unanswered, then are all served",
        arguments: [false, true])
    func unreadLargeReplies(overSocket: Bool) async throws {
        // 64 small requests whose answers are 1 MiB each: 64 MiB of replies if every one were answered at once.
        let fixture = try ServerFixture(tcp: true, stalledReaderTimeout: .seconds(60), maxPendingReplyBytes: 1 << 20)
        try await fixture.serving {
            let target = overSocket ? ["--unix", fixture.socketPath] : []
            let client = try RawClient.start(
                "unread-then-read", port: overSocket ? 0 : try await fixture.port(),
                options: ["--count", "64", "--reply", "1048576"] + target, in: fixture.directory)
            defer { client.closeStdin() }
            try await client.waitForOutput(containing: "sent", timeout: .seconds(20))
            let answered = try await eventuallySteady(
                "requests answered while the client does not read", quiet: .seconds(1), timeout: .seconds(20)
            ) { fixture.service.callers.count }
            #expect(answered >= 1)
            #expect(answered <= 16, "answered \(answered) of 64 requests whose 1 MiB replies were not read")
            client.writeStdin("read\n")
            try await client.waitForOutput(containing: "answers 64", timeout: .seconds(30))
            #expect(fixture.service.callers.count == 64)
        }
    }

    @Test("WebSocket messages for large answers the client does not read wait unanswered, then are all served")
    func unreadLargeWebSocketReplies() async throws {
        let fixture = try ServerFixture(tcp: true, stalledReaderTimeout: .seconds(60), maxPendingReplyBytes: 1 << 20)
        try await fixture.serving {
            // 32 messages whose answers are 1 MiB each: 32 MiB of replies if every one were answered at once.
            let client = try WebSocketClient.start(
                "unread-then-read", url: "ws://127.0.0.1:\(try await fixture.port())/jsonrpc",
                options: ["--count", "32", "--reply", "1048576"], input: .pipe, in: fixture.directory)
            defer { client.closeStdin() }
            try await client.waitForOutput(containing: "sent", timeout: .seconds(20))
            let answered = try await eventuallySteady(
                "messages answered while the client does not read", quiet: .seconds(1), timeout: .seconds(20)
            ) { fixture.service.callers.count }
            #expect(answered >= 1)
            #expect(answered <= 8, "answered \(answered) of 32 messages whose 1 MiB replies were not read")
            client.writeStdin("read\n")
            try await client.waitForOutput(containing: "answers 32", timeout: .seconds(30))
            #expect(fixture.service.callers.count == 32)
        }
    }

    @Test("connections over the limit are closed at once; the owner's socket still answers")
    func connectionLimit() async throws {
        let fixture = try ServerFixture(tcp: true, maxConnections: 8)
        try await fixture.serving {
            let attacker = try RawClient.start(
                "idle", port: try await fixture.port(), options: ["--count", "12"], in: fixture.directory)
            defer { attacker.closeStdin() }
            let closed = try await attacker.waitForOutput(containing: "closed", timeout: .seconds(20))
            #expect(closed.contains("closed 4"), "\(closed)")
            #expect(await fixture.server.openConnections.tcp == 8)
            let owner = try await Self.legitimate(fixture, overSocket: true)
            #expect(owner.status == 200)
            let refused = try await Self.legitimate(fixture)
            #expect(refused.status == 0, "a ninth TCP client is closed before it is answered")
        }
    }

    @Test("a page of another origin cannot open a WebSocket; no Origin, the allowed one and the listener's own can")
    func webSocketOrigin() async throws {
        let fixture = try ServerFixture(tcp: true, allowedOrigin: "https://ariang.example")
        try await fixture.serving {
            let port = try await fixture.port()
            let cases = [("http://evil.example", "403"), ("null", "403"), ("none", "101"),
                         ("https://ariang.example", "101"), ("http://127.0.0.1:\(port)", "101")]
            for (origin, status) in cases {
                let client = try WebSocketClient.start(
                    "refused", url: "ws://127.0.0.1:\(port)/jsonrpc", options: ["--origin", origin], in: fixture.directory)
                #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
                #expect(WebSocketClient.field("status", in: client) == [status], "Origin: \(origin)")
            }
        }
    }

    @Test("notifications go only to WebSocket clients that have shown the secret")
    func notificationsNeedTheSecret() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let url = "ws://127.0.0.1:\(try await fixture.port())/jsonrpc"
            let anonymous = try WebSocketClient.start("anonymous", url: url, options: ["--seconds", "3"], in: fixture.directory)
            let member = try WebSocketClient.start("listen", url: url, in: fixture.directory)
            for client in [anonymous, member] { try await client.waitForOutput(containing: "ready", timeout: .seconds(30)) }
            try await eventually("two subscribers", timeout: .seconds(20)) { fixture.service.subscriberCount == 2 }
            let message = #"{"jsonrpc":"2.0","method":"aria2.onDownloadStart","params":[{"gid":"2089b05ecca3d829"}]}"#
            fixture.service.push(message)
            for client in [anonymous, member] {
                #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
            }
            #expect(WebSocketClient.field("notification", in: member) == [message])
            #expect(anonymous.stdoutLines().contains("silent"), "\(anonymous.stdoutText())")
        }
    }

    @Test("guessing the secret on one WebSocket costs a second a guess; others are answered meanwhile")
    func guessingIsThrottled() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let guesser = try WebSocketClient.start(
                "guess", url: "ws://127.0.0.1:\(try await fixture.port())/jsonrpc", options: ["--count", "200", "--seconds", "2.5"],
                in: fixture.directory)
            try await eventually("guesses arrive", timeout: .seconds(20)) { fixture.service.callers.count >= 1 }
            let legit = try await Self.legitimate(fixture)
            #expect(legit.status == 200)
            #expect(try await guesser.waitForExit(timeout: .seconds(45)) == 0, "\(guesser.stderrText())")
            let answered = try #require(WebSocketClient.field("answered", in: guesser)?.first.flatMap { Int($0) })
            #expect((1...3).contains(answered), "\(answered) of 200 guesses answered in 2.5 s")
        }
    }

    @Test("a fragmented WebSocket message over the limit closes the connection with 1009")
    func fragmentedMessageTooLarge() async throws {
        let fixture = try ServerFixture(tcp: true, maxRequestBytes: 1024)
        try await fixture.serving {
            let client = try WebSocketClient.start(
                "fragments", url: "ws://127.0.0.1:\(try await fixture.port())/jsonrpc",
                options: ["--piece", "600", "--pieces", "4"], in: fixture.directory)
            #expect(try await client.waitForExit(timeout: .seconds(45)) == 0, "\(client.stderrText())")
            #expect(WebSocketClient.field("close", in: client) == ["8", "1009"])
            #expect(fixture.service.callers.isEmpty)
        }
    }
}
