import CCurl
import FaultServer
import Foundation
import HaulCore
import HaulTestSupport
@testable import HaulTransfer
import Testing

/// A request that may only reach a public address (a link in a playlist from one) is stopped before it is sent
/// when the server is on this machine.
@Suite(.timeLimit(.minutes(1))) struct PublicOnlyRequestTests {
    @Test func aLoopbackServerIsRefusedBeforeTheRequestIsSent() throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/jsonrpc", .file(size: 100, seed: 1))
        let easy = CurlEasy()
        var request = CurlRequest(url: server.url("/jsonrpc?method=system.listMethods"))
        request.publicOnly = true
        try easy.apply(request)
        let code = curl_easy_perform(easy.handle)
        #expect(code == CURLE_ABORTED_BY_CALLBACK)
        #expect(easy.refusedAddress == "127.0.0.1")
        #expect(server.stats("/jsonrpc").requests == 0, "nothing reached the server")
    }

    @Test func withoutTheRuleTheSameRequestIsSent() throws {
        let server = try FaultServer()
        defer { server.stop() }
        server.route("/ok", .file(size: 100, seed: 2))
        let easy = CurlEasy()
        try easy.apply(CurlRequest(url: server.url("/ok")))
        _ = curl_easy_perform(easy.handle)
        #expect(easy.refusedAddress == nil)
        #expect(server.stats("/ok").requests == 1)
    }
}
