/// One parsed HTTP/1.x request head.
struct HTTPRequest: Sendable {
    var method: String
    /// The request target as sent, e.g. `/gen/a.bin?size=10`.
    var target: String
    /// The target without its query, still percent-encoded.
    var path: String
    /// Query parameters, percent-decoded; the last occurrence wins.
    var query: [String: String]
    var version: String
    /// Header fields in order, names as sent.
    var headers: [(name: String, value: String)]

    /// The value of the last header called `name` (case-insensitive).
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.last { $0.name.lowercased() == wanted }?.value
    }

    /// Whether the connection stays open after the response (HTTP/1.1 default, HTTP/1.0 opt-in).
    var keepAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }

    var isHead: Bool { method == "HEAD" }

    /// The key for routes and stats: the path with percent-escapes decoded, so `/電影.mp4` and
    /// `/%E9%9B%BB%E5%BD%B1.mp4` name the same route.
    var routeKey: String { Self.routeKey(path) }

    /// The route key of a path as given to `FaultServer.route(_:_:)` (a query, if any, is dropped).
    static func routeKey(_ path: String) -> String {
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return percentDecoded(withoutQuery, plusAsSpace: false)
    }

    /// Parses the bytes of a request head (everything before the blank line).
    static func parse(_ head: ArraySlice<UInt8>) -> HTTPRequest? {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces()))
        }
        let target = String(requestLine[1])
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [String: String] = [:]
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = percentDecoded(parts[0], plusAsSpace: true)
                query[key] = parts.count > 1 ? percentDecoded(parts[1], plusAsSpace: true) : ""
            }
        }
        return HTTPRequest(
            method: String(requestLine[0]), target: target, path: String(target[..<pathEnd]),
            query: query, version: String(requestLine[2]), headers: headers)
    }

    /// Decodes `%XX` escapes, and `+` as a space when `plusAsSpace` (query components).
    static func percentDecoded(_ text: Substring, plusAsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Reads request heads from one connection, keeping bytes that arrive early for the next request.
struct RequestReader {
    /// Upper bound for a request head; larger heads end the connection.
    static let maximumHeadSize = 64 * 1024

    private let fd: Int32
    private let stopFD: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32, stopFD: Int32) {
        self.fd = fd
        self.stopFD = stopFD
    }

    /// The next request, or nil when the peer closed, the head is malformed or the server stops.
    mutating func next() -> HTTPRequest? {
        while true {
            if let end = headEnd() {
                let request = HTTPRequest.parse(buffer[..<end])
                buffer.removeFirst(end + 4)
                guard let request else { return nil }
                guard discardBody(of: request) else { return nil }
                return request
            }
            guard buffer.count < Self.maximumHeadSize, fill() else { return nil }
        }
    }

    /// Index of the `\r\n\r\n` that ends the head, if it has arrived.
    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads and drops a request body announced by Content-Length (the server never needs one).
    private mutating func discardBody(of request: HTTPRequest) -> Bool {
        guard let length = request.header("Content-Length").flatMap({ Int($0) }), length > 0 else { return true }
        while buffer.count < length {
            guard fill() else { return false }
        }
        buffer.removeFirst(length)
        return true
    }

    /// Appends what the socket has; false at end of stream, on error, or when the server stops.
    private mutating func fill() -> Bool {
        let ready = Socket.waitReadable([fd, stopFD], timeoutMilliseconds: -1)
        guard ready.contains(fd), !ready.contains(stopFD) else { return false }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let n = chunk.withUnsafeMutableBytes { Socket.receive(fd, into: $0) } ?? 0
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }
}
