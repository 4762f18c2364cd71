extension RPCServerConfiguration.TCPListener {
    /// Reads `--rpc-listen`: `PORT`, `HOST:PORT`, or `[IPV6]:PORT` (brackets as in a URL).
    ///
    /// A bare IPv6 address (`::1`, `::1:6800`) is refused: its last group cannot be told from a port.
    public init(parsing text: String) throws(RPCListenError) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .malformed(text) }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), !host.isEmpty else { throw .malformed(text) }
            portText = rest.dropFirst()
        } else if let colon = text.firstIndex(of: ":") {
            guard text.lastIndex(of: ":") == colon else { throw .bareIPv6(text) }
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            guard !host.isEmpty else { throw .malformed(text) }
        }
        guard let port = Int(portText), (0...65535).contains(port) else { throw .malformed(text) }
        self.init(host: host, port: port)
    }
}

/// Why `--rpc-listen` was refused; the message quotes the value and shows the form to use.
public enum RPCListenError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case bareIPv6(String)

    public var description: String {
        switch self {
        case let .malformed(text):
            "--rpc-listen '\(text)' is not [HOST:]PORT with a port from 0 to 65535 (IPv6 as [::1]:PORT)"
        case let .bareIPv6(text):
            "--rpc-listen '\(text)' looks like an IPv6 address: write it in brackets with a port, as [::1]:6800"
        }
    }
}
