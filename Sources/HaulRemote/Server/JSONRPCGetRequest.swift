import Foundation

/// aria2's GET form of a JSON-RPC call: `/jsonrpc?method=M&id=ID&params=BASE64(JSON)[&jsoncallback=CB]`.
///
/// Turned into the request body a POST would carry, as aria2's `json::decodeGetParams` does:
/// with `method` or `id` given, `{"method":M,"id":"ID","params":PARAMS}` (the id is always a string);
/// with neither, the decoded `params` is the whole body (a batch). Parameters that do not decode are
/// passed on as they are, so the dispatcher answers them with -32700 like aria2.
/// With `jsoncallback`, the reply is wrapped as `CB(...)` and sent as `text/javascript`.
struct JSONRPCGetRequest: Sendable, Equatable {
    /// The JSON-RPC request text for the dispatcher.
    var body: [UInt8]
    /// The JSONP callback name, when given.
    var callback: String?

    /// Parses the query part of a request target (`method=...&...`, without `?`).
    ///
    /// Returns nil when `jsoncallback` is not a plain JavaScript name (letters, digits, `_`, `$`, `.`), so a
    /// request cannot make the server send script text of its choosing.
    init?(query: Substring) {
        var method: String?
        var id: String?
        var params: String?
        var callback: String?
        for pair in query.split(separator: "&") {
            if pair.hasPrefix("method=") {
                method = Self.percentDecoded(pair.dropFirst(7))
            } else if pair.hasPrefix("id=") {
                id = Self.percentDecoded(pair.dropFirst(3))
            } else if pair.hasPrefix("params=") {
                params = Self.percentDecoded(pair.dropFirst(7))
            } else if pair.hasPrefix("jsoncallback=") {
                callback = Self.percentDecoded(pair.dropFirst(13))
            }
        }
        if let callback {
            guard !callback.isEmpty, callback.utf8.allSatisfy(Self.isCallbackByte) else { return nil }
        }
        self.callback = callback

        let decoded = params.map(Self.base64Decoded) ?? []
        guard method != nil || id != nil else {
            body = decoded
            return
        }
        var fields: [String] = []
        if let method { fields.append("\"method\":\(Self.jsonString(method))") }
        if let id { fields.append("\"id\":\(Self.jsonString(id))") }
        var text = Array("{".utf8) + Array(fields.joined(separator: ",").utf8)
        if params != nil {
            text += Array(",\"params\":".utf8) + decoded
        }
        body = text + Array("}".utf8)
    }

    /// The reply body for this request: wrapped in the callback for JSONP.
    func wrap(_ reply: [UInt8]) -> [UInt8] {
        guard let callback else { return reply }
        return Array(callback.utf8) + Array("(".utf8) + reply + Array(")".utf8)
    }

    /// `%XX` decoded; text that does not decode is kept as it is.
    static func percentDecoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    /// Standard or URL-safe base64, padding optional; text that is not base64 is returned as its bytes.
    static func base64Decoded(_ text: String) -> [UInt8] {
        var normalized = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        normalized += String(repeating: "=", count: (4 - normalized.utf8.count % 4) % 4)
        return Data(base64Encoded: normalized).map { Array($0) } ?? Array(text.utf8)
    }

    /// A JSON string literal for `text`.
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func isCallbackByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."):
            true
        default: false
        }
    }
}
