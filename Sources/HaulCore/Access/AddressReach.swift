import Glibc

/// Where a numeric IP address leads, as browsers' Private Network Access rules see it: a page (here, a playlist)
/// served from a public address may not send haul to this machine or to a private network; one served from such
/// an address may.
public enum AddressReach: Sendable, Equatable {
    /// This machine: 127.0.0.0/8, ::1, 0.0.0.0, ::.
    case local
    /// A private or link-local network: 10/8, 172.16/12, 192.168/16, 169.254/16, 100.64/10 (carrier NAT),
    /// fc00::/7, fe80::/10, and IPv4-mapped forms of these.
    case privateNetwork
    /// Anything else.
    case publicNetwork

    /// The reach of `address` (dotted IPv4 or IPv6 text, as libcurl reports a connection's peer; a zone after `%`
    /// is ignored); nil when it is not a numeric address.
    public init?(address: String) {
        let text = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = Self.reach(withUnsafeBytes(of: v4) { Array($0) })
            return
        }
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            self = Self.reach(Array(bytes[12..<16]))
        } else if bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 {
            self = .local
        } else if bytes[0] & 0xFE == 0xFC || (bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80) {
            self = .privateNetwork
        } else {
            self = .publicNetwork
        }
    }

    /// Whether a link found in a resource served from `origin` may be fetched from `target`: only a resource
    /// from this machine or a private network may lead there. Unknown reaches are refused from a public origin.
    public static func allows(origin: AddressReach, target: AddressReach?) -> Bool {
        origin != .publicNetwork || target == .publicNetwork
    }

    private static func reach(_ octets: [UInt8]) -> AddressReach {
        switch (octets[0], octets[1]) {
        case (127, _), (0, _): .local
        case (10, _), (192, 168), (169, 254): .privateNetwork
        case (172, 16...31), (100, 64...127): .privateNetwork
        default: .publicNetwork
        }
    }
}
