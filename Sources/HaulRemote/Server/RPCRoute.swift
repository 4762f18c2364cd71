import NIOCore
import NIOHTTP1

/// What to do with one complete HTTP request, decided from its head alone (the body is only read, not judged).
enum RPCRoute: Equatable {
    /// Answer at once with a status and a short plain-text reason (refusals), and close the connection.
    case refuse(HTTPResponseStatus, reason: String, headers: [HeaderField] = [])
    /// Answer a CORS preflight (`OPTIONS`): 200, with CORS headers only for the allowed origin.
    case preflight(headers: [HeaderField])
    /// Hand the body (POST) or the decoded GET form to the service.
    case answer(ProtocolForm, corsHeaders: [HeaderField])

    /// How the JSON-RPC request arrived.
    enum ProtocolForm: Equatable {
        /// POST: the body is the request, whatever its `Content-Type` (browser extensions send `text/plain`).
        case post
        /// GET: the request is in the query (aria2's `method`/`id`/`params`/`jsoncallback`).
        case get(JSONRPCGetRequest)
    }

    /// One response header.
    struct HeaderField: Equatable, Sendable {
        var name: String
        var value: String
    }
}

extension RPCEndpoint {
    /// Routes one request the way aria2's `HttpServerCommand` and `HttpServerBodyCommand` do, after the `Host` check.
    ///
    /// - Parameter localIP: the listener-side address of the connection, for the `Host` check on TCP.
    func route(_ head: HTTPRequestHead, localIP: String?) -> RPCRoute {
        if let refusal = hostRefusal(head, localIP: localIP) { return refusal }
        let (path, query) = Self.splitTarget(head.uri)
        let origin = head.headers.first(name: "origin")

        if Self.isWebSocketAttempt(head) {
            // The upgrader took every acceptable handshake; what reaches here is refused with aria2's statuses,
            // or with 403 for a web page of another origin.
            if !allowsWebSocketOrigin(origin, localIP: localIP) {
                return .refuse(.forbidden, reason: "WebSocket connections from \(origin ?? "") are not allowed")
            }
            return Self.handshakeRefusal(head, path: path)
        }
        if head.method == .OPTIONS {
            let headers = cors.preflightHeaders(
                origin: origin,
                requestMethod: head.headers.first(name: "access-control-request-method"),
                requestHeaders: head.headers.first(name: "access-control-request-headers"))
            return .preflight(headers: headers.map(RPCRoute.HeaderField.init))
        }
        guard path == Self.path else { return .refuse(.notFound, reason: "not found: use \(Self.path)") }
        let corsHeaders = cors.responseHeaders(origin: origin).map(RPCRoute.HeaderField.init)
        switch head.method {
        case .POST:
            return .answer(.post, corsHeaders: corsHeaders)
        case .GET:
            guard let form = JSONRPCGetRequest(query: query) else {
                return .refuse(.badRequest, reason: "jsoncallback must be a plain JavaScript name")
            }
            return .answer(.get(form), corsHeaders: corsHeaders)
        default:
            return .refuse(.notFound, reason: "use POST or GET on \(Self.path)")
        }
    }

    /// Whether a WebSocket handshake may go ahead: the right path, and on TCP a `Host` naming the listener and
    /// an `Origin` that may connect.
    func acceptsUpgrade(_ head: HTTPRequestHead, localIP: String?) -> Bool {
        hostRefusal(head, localIP: localIP) == nil && Self.splitTarget(head.uri).path == Self.path
            && allowsWebSocketOrigin(head.headers.first(name: "origin"), localIP: localIP)
    }

    /// The WebSocket handshake's `Origin` rule on TCP, like CORS for HTTP (a browser lets any page open a WebSocket
    /// anywhere, so the server must look): no `Origin` (a plain client), the `--rpc-allow-origin` one, or the
    /// listener's own (`http://127.0.0.1:PORT`, which websocket-client and aria2p send; no page is served there).
    func allowsWebSocketOrigin(_ origin: String?, localIP: String?) -> Bool {
        guard let hostCheck, let origin else { return true }
        if cors.allows(origin: origin) { return true }
        let parts = origin.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, ["http:", "https:"].contains(parts[0].lowercased()), parts[1].isEmpty else { return false }
        let authority = parts[2]
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return false }
        return hostCheck.verdict(host: String(authority), localIP: localIP, requiresHost: true) == .allowed
    }

    /// 400 for a missing or repeated `Host` on HTTP/1.1, 403 for a foreign one; nil when the host is fine (or not
    /// checked).
    func hostRefusal(_ head: HTTPRequestHead, localIP: String?) -> RPCRoute? {
        guard let hostCheck else { return nil }
        // Two `Host` headers may be read differently by a proxy in front and by this check (RFC 9112 §3.2).
        if head.headers["host"].count > 1 { return .refuse(.badRequest, reason: "more than one Host header") }
        let requiresHost = head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1)
        switch hostCheck.verdict(host: head.headers.first(name: "host"), localIP: localIP, requiresHost: requiresHost) {
        case .allowed: return nil
        case .missing: return .refuse(.badRequest, reason: "missing Host header")
        case .foreign: return .refuse(.forbidden, reason: "Host does not name this listener")
        }
    }

    /// The path and the query of a request target (the fragment dropped, as aria2 does).
    static func splitTarget(_ uri: String) -> (path: Substring, query: Substring) {
        let target = uri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let mark = target.firstIndex(of: "?") else { return (target, "") }
        return (target[..<mark], target[target.index(after: mark)...])
    }

    /// `Upgrade: websocket` with `Connection: upgrade`, as aria2 tests it.
    static func isWebSocketAttempt(_ head: HTTPRequestHead) -> Bool {
        let upgrade = head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
        let connection = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
        return upgrade && connection
    }

    /// aria2's `websocketHandshake` statuses: 400 (not GET, no key), 426 (version is not 13), 404 (wrong path).
    static func handshakeRefusal(_ head: HTTPRequestHead, path: Substring) -> RPCRoute {
        if head.method != .GET || head.headers.first(name: "sec-websocket-key") == nil {
            return .refuse(.badRequest, reason: "bad WebSocket handshake")
        }
        if head.headers.first(name: "sec-websocket-version") != "13" {
            return .refuse(
                .upgradeRequired, reason: "WebSocket version 13 required",
                headers: [.init(name: "Sec-WebSocket-Version", value: "13")])
        }
        if path != Self.path { return .refuse(.notFound, reason: "not found: use \(Self.path)") }
        return .refuse(.badRequest, reason: "bad WebSocket handshake")
    }
}

extension RPCRoute.HeaderField {
    init(_ pair: (String, String)) { self.init(name: pair.0, value: pair.1) }
}
