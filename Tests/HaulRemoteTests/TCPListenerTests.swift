import Foundation
import HaulRemote
import HaulTestSupport
import Testing

@Suite("TCP listener")
struct TCPListenerTests {
    @Test("a Host naming the listener is served; any other name or port gets 403, none at all 400")
    func hostCheck() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let port = try await fixture.port()
            let url = try await fixture.url()
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
                let run = try await CurlRun.run(["-H", "Host: \(host)", "-d", "{}", url], in: fixture.directory)
                #expect(run.status == 200, "Host: \(host)")
            }
            for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1", "evil.example"] {
                let run = try await CurlRun.run(["-H", "Host: \(host)", "-d", "{}", url], in: fixture.directory)
                #expect(run.status == 403, "Host: \(host)")
                #expect(run.body.contains("Host"))
            }
            let missing = try await CurlRun.run(["-H", "Host:", "-d", "{}", url], in: fixture.directory)
            #expect(missing.status == 400)
            #expect(fixture.service.callers.allSatisfy { $0 == RPCCaller(transport: .tcp) })
            #expect(fixture.service.callers.count == 4)
        }
    }

    @Test("no CORS headers unless the request comes from the allowed origin")
    func corsHeaders() async throws {
        let open = try ServerFixture(tcp: true)
        try await open.serving {
            let run = try await CurlRun.run(
                ["-H", "Origin: https://ui.example", "-d", "{}", try await open.url()], in: open.directory)
            #expect(run.status == 200)
            #expect(!run.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
        }
        let fixture = try ServerFixture(tcp: true, allowedOrigin: "https://ui.example")
        try await fixture.serving {
            let url = try await fixture.url()
            let allowed = try await CurlRun.run(["-H", "Origin: https://ui.example", "-d", "{}", url], in: fixture.directory)
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://ui.example")
            for origin in ["https://evil.example", "null"] {
                let foreign = try await CurlRun.run(["-H", "Origin: \(origin)", "-d", "{}", url], in: fixture.directory)
                #expect(foreign.status == 200)
                #expect(!foreign.headers.contains { $0.name.lowercased().hasPrefix("access-control-") }, "Origin: \(origin)")
            }
        }
    }

    @Test("an OPTIONS preflight from the allowed origin gets aria2's CORS answer; from another origin, none")
    func preflight() async throws {
        let fixture = try ServerFixture(tcp: true, allowedOrigin: "https://ui.example")
        try await fixture.serving {
            let url = try await fixture.url()
            let preflight = [
                "-X", "OPTIONS", "-H", "Access-Control-Request-Method: POST",
                "-H", "Access-Control-Request-Headers: content-type",
            ]
            let allowed = try await CurlRun.run(
                preflight + ["-H", "Origin: https://ui.example", url], in: fixture.directory)
            #expect(allowed.status == 200)
            #expect(allowed.header("Access-Control-Allow-Origin") == "https://ui.example")
            #expect(allowed.header("Access-Control-Allow-Methods") == "POST, GET, OPTIONS")
            #expect(allowed.header("Access-Control-Allow-Headers") == "content-type")
            #expect(allowed.header("Access-Control-Max-Age") == "1728000")
            let foreign = try await CurlRun.run(
                preflight + ["-H", "Origin: https://evil.example", url], in: fixture.directory)
            #expect(foreign.status == 200)
            #expect(!foreign.headers.contains { $0.name.lowercased().hasPrefix("access-control-") })
            #expect(fixture.service.callers.isEmpty, "a preflight never reaches the service")
        }
    }

    @Test("a reply to a bad secret arrives after about a second")
    func unauthorizedDelay() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let url = try await fixture.url()
            let fast = try await CurlRun.run(["-d", #"{"params":["token:right"]}"#, url], in: fixture.directory)
            #expect(fast.status == 200)
            let slow = try await CurlRun.run(["-d", #"{"params":["token:wrong"]}"#, url], in: fixture.directory)
            #expect(slow.status == 400)
            #expect(slow.body == String(decoding: EchoService.unauthorizedBody, as: UTF8.self))
            #expect(slow.transferTime >= .milliseconds(900))
        }
    }

    @Test("a body over the limit gets 413, declared or chunked; one at the limit is served")
    func bodyLimit() async throws {
        let fixture = try ServerFixture(tcp: true, maxRequestBytes: 1024)
        try await fixture.serving {
            let url = try await fixture.url()
            let atLimit = try await CurlRun.run(["-d", String(repeating: "a", count: 1024), url], in: fixture.directory)
            #expect(atLimit.status == 200)
            #expect(atLimit.body.count == 1024)
            let over = try await CurlRun.run(["-d", String(repeating: "a", count: 1025), url], in: fixture.directory)
            #expect(over.status == 413)
            let chunked = try await CurlRun.run(
                ["-H", "Transfer-Encoding: chunked", "-d", String(repeating: "a", count: 5000), url], in: fixture.directory)
            #expect(chunked.status == 413)
            #expect(fixture.service.callers.count == 1)
        }
    }

    @Test("the GET form: method, id and base64 params become a request; jsoncallback wraps the reply")
    func getForm() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let params = Data(#"["token:s3cret",["gid"]]"#.utf8).base64EncodedString()
            let encoded = params.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? params
            let query = "?method=aria2.tellActive&id=7&params=\(encoded)"
            let plain = try await CurlRun.run([try await fixture.url(query)], in: fixture.directory)
            #expect(plain.status == 200)
            #expect(plain.header("Content-Type") == "application/json-rpc")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(plain.body.utf8)) as? [String: Any])
            #expect(json["method"] as? String == "aria2.tellActive")
            #expect(json["id"] as? String == "7")
            let decoded = try #require(json["params"] as? [Any])
            #expect(decoded.first as? String == "token:s3cret")
            #expect(decoded.last as? [String] == ["gid"])

            let jsonp = try await CurlRun.run([try await fixture.url(query + "&jsoncallback=cb_1")], in: fixture.directory)
            #expect(jsonp.status == 200)
            #expect(jsonp.header("Content-Type") == "text/javascript")
            #expect(jsonp.body.hasPrefix("cb_1({") && jsonp.body.hasSuffix("})"))

            let script = try await CurlRun.run(
                [try await fixture.url(query + "&jsoncallback=alert(1)%3B")], in: fixture.directory)
            #expect(script.status == 400)
        }
    }

    @Test("other paths get 404; a reply with no body is an empty 200")
    func pathsAndEmptyReplies() async throws {
        let fixture = try ServerFixture(tcp: true)
        try await fixture.serving {
            let port = try await fixture.port()
            let other = try await CurlRun.run(["-d", "{}", "http://127.0.0.1:\(port)/rpc"], in: fixture.directory)
            #expect(other.status == 404)
            let empty = try await CurlRun.run(["-d", "notification", try await fixture.url()], in: fixture.directory)
            #expect(empty.status == 200)
            #expect(empty.body.isEmpty)
        }
    }

    @Test("an idle connection is closed after the idle timeout")
    func idleTimeout() async throws {
        let fixture = try ServerFixture(tcp: true, idleTimeout: .milliseconds(300))
        try await fixture.serving {
            let port = try await fixture.port()
            // Connects, sends nothing, and reports how the connection ended (the server closing it, data, or the
            // client's own bounded wait running out) and after how long.
            let script = """
                import socket, time
                s = socket.create_connection(("127.0.0.1", \(port)), timeout=8)
                t = time.monotonic()
                try:
                    how = "closed" if s.recv(1) == b"" else "data"
                except socket.timeout:
                    how = "still-open"
                print(how, round(time.monotonic() - t, 3))
                """
            let process = try HaulProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", script])
            #expect(try await process.waitForExit(timeout: .seconds(20)) == 0)
            let words = process.stdoutText().split(separator: " ")
            #expect(words.first == "closed", "the server did not close the idle connection: \(process.stdoutText())")
            let seconds = try #require(words.last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            #expect(seconds >= 0.2, "closed before the idle timeout")
        }
    }
}
