import Foundation
@testable import HaulRemote
import NIOCore
import NIOHTTP1
import Testing

@Suite("Routing rules")
struct RoutingTests {
    @Test("Host names accepted for loopback, wildcard and named binds")
    func hostNames() {
        let loopback = HostCheck(configuredHost: "127.0.0.1", port: 6800)
        #expect(loopback.verdict(host: "[::1]:6800", localIP: "127.0.0.1", requiresHost: true) == .allowed)
        #expect(loopback.verdict(host: "127.0.0.1:6801", localIP: "127.0.0.1", requiresHost: true) == .foreign)
        #expect(loopback.verdict(host: "rebind.example:6800", localIP: "127.0.0.1", requiresHost: true) == .foreign)
        #expect(loopback.verdict(host: nil, localIP: "127.0.0.1", requiresHost: true) == .missing)
        #expect(loopback.verdict(host: nil, localIP: "127.0.0.1", requiresHost: false) == .allowed)

        let wildcard = HostCheck(configuredHost: "0.0.0.0", port: 6800)
        #expect(wildcard.verdict(host: "192.168.1.5:6800", localIP: "192.168.1.5", requiresHost: true) == .allowed)
        #expect(wildcard.verdict(host: "localhost:6800", localIP: "192.168.1.5", requiresHost: true) == .foreign)
        #expect(wildcard.verdict(host: "localhost:6800", localIP: "127.0.0.1", requiresHost: true) == .allowed)

        let v6 = HostCheck(configuredHost: "::1", port: 80)
        #expect(v6.verdict(host: "[::1]", localIP: "::1", requiresHost: true) == .allowed)
        #expect(v6.verdict(host: "[::1]:80:1", localIP: "::1", requiresHost: true) == .foreign)
    }

    @Test("the GET form without method or id is a batch; bad base64 is passed on for -32700")
    func getFormShapes() throws {
        let batchJSON = #"[{"method":"aria2.getVersion","id":"a"}]"#
        let batch = try #require(JSONRPCGetRequest(query: "params=\(Data(batchJSON.utf8).base64EncodedString())"))
        #expect(String(decoding: batch.body, as: UTF8.self) == batchJSON)
        #expect(batch.callback == nil)

        let noParams = try #require(JSONRPCGetRequest(query: "method=system.listMethods&id=%22x"))
        #expect(String(decoding: noParams.body, as: UTF8.self) == #"{"method":"system.listMethods","id":"\"x"}"#)

        let garbage = try #require(JSONRPCGetRequest(query: "method=m&id=1&params=***"))
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(garbage.body)) }

        let unpadded = try #require(JSONRPCGetRequest(query: "method=m&params=WzFd"))  // "[1]"
        #expect(String(decoding: unpadded.body, as: UTF8.self) == #"{"method":"m","params":[1]}"#)
        #expect(JSONRPCGetRequest(query: "method=m&jsoncallback=") == nil)
    }

    @Test("refused WebSocket handshakes get aria2's statuses")
    func handshakeStatuses() {
        func head(_ headers: [(String, String)], uri: String = "/jsonrpc", method: HTTPMethod = .GET) -> HTTPRequestHead {
            HTTPRequestHead(
                version: .http1_1, method: method, uri: uri,
                headers: HTTPHeaders([("Upgrade", "websocket"), ("Connection", "Upgrade")] + headers))
        }
        let endpoint = RPCEndpoint(
            service: EchoService(), caller: .init(transport: .localSocket), hostCheck: nil,
            cors: CORSPolicy(allowedOrigin: nil), maxRequestBytes: 1024, unauthorizedDelay: .seconds(1),
            stalledReaderTimeout: .seconds(10), maxPendingReplyBytes: 8 << 20)
        let key = ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
        if case .refuse(let status, _, let headers) = endpoint.route(head([key, ("Sec-WebSocket-Version", "8")]), localIP: nil) {
            #expect(status == .upgradeRequired)
            #expect(headers == [.init(name: "Sec-WebSocket-Version", value: "13")])
        } else {
            Issue.record("version 8 was not refused")
        }
        #expect(endpoint.route(head([("Sec-WebSocket-Version", "13")]), localIP: nil).status == .badRequest)
        #expect(endpoint.route(head([key, ("Sec-WebSocket-Version", "13")], uri: "/x"), localIP: nil).status == .notFound)
        #expect(endpoint.route(head([key, ("Sec-WebSocket-Version", "13")], method: .POST), localIP: nil).status == .badRequest)
    }
}

extension RPCRoute {
    /// The status of a refusal, nil for other routes.
    var status: HTTPResponseStatus? {
        if case .refuse(let status, _, _) = self { return status }
        return nil
    }
}
