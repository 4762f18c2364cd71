import Foundation
@testable import HaulRemote
import NIOCore
import NIOHTTP1
import Testing

/// The pure rules that stand between a hostile request and costly work: JSON nesting, `Host`, `Origin`,
/// `--rpc-listen` and the secret's length.
@Suite("Hostile input rules")
struct HostileInputTests {
    static func nested(_ depth: Int) -> [UInt8] {
        Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }

    @Test("JSON values come back as they were sent")
    func values() throws {
        let text = #"{"b":[true,false,null],"i":[0,1,-5,127,255,9007199254740993],"d":[1.5,-0.25,1e300],"s":"a\"]}[\\","big":18446744073709551615}"#
        let value = try JSONValue.parse(Array(text.utf8))
        let fields = try #require(value.objectValue)
        #expect(fields["b"] == [.bool(true), .bool(false), .null])
        #expect(fields["i"] == [0, 1, -5, 127, 255, 9007199254740993])
        #expect(fields["d"] == [.double(1.5), .double(-0.25), .double(1e300)])
        #expect(fields["s"] == .string(#"a"]}[\"#))
        #expect(fields["big"] == .double(Double(UInt64.max)))
        #expect(try JSONValue.parse(Array("\"x\"".utf8)) == "x")
        #expect(throws: JSONParseError.malformed) { try JSONValue.parse(Array("{not json".utf8)) }
    }

    @Test("nesting is capped at 64; brackets inside strings do not count")
    func nestingCap() throws {
        #expect(try JSONValue.parse(Self.nested(JSONValue.maxDepth)) != .null)
        #expect(throws: JSONParseError.tooDeep) { try JSONValue.parse(Self.nested(JSONValue.maxDepth + 1)) }
        #expect(throws: JSONParseError.tooDeep) { try JSONValue.parse(Self.nested(100_000)) }
        let quoted = "[\"" + String(repeating: "[{", count: 500) + "\\\"\"]"
        #expect(try JSONValue.parse(Array(quoted.utf8)).arrayValue?.count == 1)
    }

    /// CPU time, not wall time: a busy machine makes the parse wait for a core but not work more.
    @Test("1 MB of requests nested 60 deep costs well under a second of CPU (the decoder took 19 s)")
    func wideNestingIsLinear() throws {
        let one = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        let body = Array(("[" + Array(repeating: one, count: 8000).joined(separator: ",") + "]").utf8)
        let before = Self.threadCPUSeconds()
        let value = try JSONValue.parse(body)
        let used = Self.threadCPUSeconds() - before
        #expect(value.arrayValue?.count == 8000)
        #expect(used < 2, "the parse used \(used) s of CPU")
    }

    /// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    @Test("two Host headers are refused on TCP")
    func twoHostHeaders() {
        let endpoint = Self.tcpEndpoint(allowedOrigin: nil)
        let head = HTTPRequestHead(
            version: .http1_1, method: .POST, uri: "/jsonrpc",
            headers: HTTPHeaders([("Host", "127.0.0.1:6800"), ("Host", "evil.example")]))
        #expect(endpoint.route(head, localIP: "127.0.0.1").status == .badRequest)
        let one = HTTPRequestHead(
            version: .http1_1, method: .POST, uri: "/jsonrpc", headers: HTTPHeaders([("Host", "127.0.0.1:6800")]))
        #expect(endpoint.route(one, localIP: "127.0.0.1").status == nil)
    }

    @Test("a WebSocket Origin: none, the allowed one, or the listener's own")
    func webSocketOrigins() {
        let endpoint = Self.tcpEndpoint(allowedOrigin: "https://ariang.example")
        #expect(endpoint.allowsWebSocketOrigin(nil, localIP: "127.0.0.1"))
        #expect(endpoint.allowsWebSocketOrigin("https://ariang.example", localIP: "127.0.0.1"))
        #expect(endpoint.allowsWebSocketOrigin("http://127.0.0.1:6800", localIP: "127.0.0.1"))
        #expect(endpoint.allowsWebSocketOrigin("http://localhost:6800", localIP: "127.0.0.1"))
        for origin in ["http://evil.example", "http://evil.example:6800", "null", "http://127.0.0.1:6801",
                       "file://", "http://127.0.0.1:6800/x", "http://a@127.0.0.1:6800", "https://ariang.example.evil"] {
            #expect(!endpoint.allowsWebSocketOrigin(origin, localIP: "127.0.0.1"), "\(origin)")
        }
        let handshake = HTTPRequestHead(
            version: .http1_1, method: .GET, uri: "/jsonrpc",
            headers: HTTPHeaders([
                ("Host", "127.0.0.1:6800"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
                ("Origin", "http://evil.example"),
            ]))
        #expect(!endpoint.acceptsUpgrade(handshake, localIP: "127.0.0.1"))
        #expect(endpoint.route(handshake, localIP: "127.0.0.1").status == .forbidden)
    }

    @Test("--rpc-listen takes PORT, HOST:PORT and [IPV6]:PORT; a bare IPv6 address is refused")
    func listenForms() throws {
        typealias Listener = RPCServerConfiguration.TCPListener
        #expect(try Listener(parsing: "6800") == Listener(host: "127.0.0.1", port: 6800))
        #expect(try Listener(parsing: "0.0.0.0:6800") == Listener(host: "0.0.0.0", port: 6800))
        #expect(try Listener(parsing: "[::1]:6800") == Listener(host: "::1", port: 6800))
        #expect(try Listener(parsing: "[::1]:0") == Listener(host: "::1", port: 0))
        #expect(throws: RPCListenError.bareIPv6("::1")) { try Listener(parsing: "::1") }
        #expect(throws: RPCListenError.bareIPv6("::1:6800")) { try Listener(parsing: "::1:6800") }
        for bad in ["[::1]", "[::1]6800", "[]:6800", ":6800", "host:", "host:70000", "[::1:6800", "x"] {
            #expect(throws: RPCListenError.malformed(bad)) { try Listener(parsing: bad) }
        }
        #expect(RPCListenError.bareIPv6("::1").description.contains("[::1]:6800"))
    }

    @Test("a secret shorter than 16 characters is refused, saying where it came from")
    func secretLength() throws {
        #expect(throws: RPCSecretTooShort.self) { try RPCSecretRule.check("ab", from: "/tmp/secret") }
        #expect(throws: RPCSecretTooShort.self) { try RPCSecretRule.check("fifteen-chars-x", from: "HAUL_RPC_SECRET") }
        try RPCSecretRule.check("sixteen-chars-xx", from: "HAUL_RPC_SECRET")
        do {
            try RPCSecretRule.check("ab", from: "/tmp/secret")
        } catch {
            #expect(error.description.contains("/tmp/secret") && error.description.contains("16"))
        }
    }

    @Test("the connection limit leaves room under any descriptor limit")
    func connectionLimit() {
        #expect(ConnectionLimit.perListener(descriptorLimit: 1024) == 192)
        #expect(ConnectionLimit.perListener(descriptorLimit: 64) == ConnectionLimit.floor)
        #expect(ConnectionLimit.perListener(descriptorLimit: 1 << 20) == ConnectionLimit.ceiling)
        // Both listeners and the reserve fit under the limit.
        for limit in [512, 1024, 4096, 65536] {
            #expect(2 * ConnectionLimit.perListener(descriptorLimit: limit) + ConnectionLimit.reserve <= limit)
        }
    }

    static func tcpEndpoint(allowedOrigin: String?) -> RPCEndpoint {
        RPCEndpoint(
            service: EchoService(), caller: .init(transport: .tcp),
            hostCheck: HostCheck(configuredHost: "127.0.0.1", port: 6800), cors: CORSPolicy(allowedOrigin: allowedOrigin),
            maxRequestBytes: 1 << 20, unauthorizedDelay: .seconds(1), stalledReaderTimeout: .seconds(10),
            maxPendingReplyBytes: 8 << 20)
    }
}
