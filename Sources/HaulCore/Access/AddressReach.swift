import Foundation

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

    /// The reach of `address` (dotted IPv4 or IPv6 text, as libcurl reports a connection's peer); nil when it is
    /// not a numeric address.
    public init?(address: String) {
        if let v4 = Self.ipv4(address) {
            self = Self.reach(v4)
            return
        }
        guard let v6 = Self.ipv6(address) else { return nil }
        if v6[0..<10].allSatisfy({ $0 == 0 }), v6[10] == 0xFF, v6[11] == 0xFF {
            self = Self.reach(Array(v6[12..<16]))
        } else if v6[0..<15].allSatisfy({ $0 == 0 }), v6[15] <= 1 {
            self = .local
        } else if v6[0] & 0xFE == 0xFC || (v6[0] == 0xFE && v6[1] & 0xC0 == 0x80) {
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

    /// Four octets of dotted decimal text, each 0–255.
    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part -> UInt8? in
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII) else { return nil }
            return UInt8(part)
        }
        return octets.count == 4 ? octets : nil
    }

    /// Sixteen bytes of IPv6 text (`::` shorthand, a zone after `%` ignored, a dotted IPv4 tail).
    private static func ipv6(_ text: String) -> [UInt8]? {
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        guard address.contains(":"), address.count <= 45 else { return nil }
        let halves = address.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = ipv4(String(piece)) {
                    result.append(UInt16(v4[0]) << 8 | UInt16(v4[1]))
                    result.append(UInt16(v4[2]) << 8 | UInt16(v4[3]))
                } else {
                    guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return nil }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        let all = head + Array(repeating: 0, count: halves.count == 2 ? missing : 0) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
