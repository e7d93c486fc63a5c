/// What kind of address an IP is, as far as SSRF protection cares: only `.global` addresses are
/// reachable by Seam unless configuration opens more.
package enum AddressCategory: String, Sendable, Hashable {
    case global
    case loopback
    case linkLocal
    case privateNetwork
    /// 100.64.0.0/10, carrier-grade NAT: not the Internet, often a provider's internal network.
    case sharedAddressSpace
    /// 0.0.0.0/8 and `::`: on many systems a connection to these reaches the local host.
    case unspecified
    case multicast
    /// Documentation, benchmarking, future-use and other ranges that no legitimate origin uses.
    case reserved

    package var isGlobal: Bool { self == .global }

    /// For error messages: "a loopback address".
    package var phrase: String {
        switch self {
        case .global: return "a public address"
        case .loopback: return "a loopback address"
        case .linkLocal: return "a link-local address (cloud metadata services live here)"
        case .privateNetwork: return "a private-network address"
        case .sharedAddressSpace: return "a carrier-grade NAT (100.64.0.0/10) address, treated as private"
        case .unspecified: return "an unspecified address (it reaches the local host)"
        case .multicast: return "a multicast address"
        case .reserved: return "a reserved, non-public address"
        }
    }
}

/// Classifies addresses for the SSRF rules. Pure and table-driven so it is tested without a network.
///
/// IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
/// NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`) are judged by the IPv4 address they carry,
/// because that is where a packet can end up. Any other IPv6 address outside global unicast
/// (2000::/3) is not public.
package enum AddressClassifier {
    private static func network(_ text: String) -> IPNetwork {
        guard let network = IPNetwork(text) else { preconditionFailure("bad built-in network \(text)") }
        return network
    }

    static let ipv4Table: [(IPNetwork, AddressCategory)] = [
        (network("0.0.0.0/8"), .unspecified),
        (network("10.0.0.0/8"), .privateNetwork),
        (network("100.64.0.0/10"), .sharedAddressSpace),
        (network("127.0.0.0/8"), .loopback),
        (network("169.254.0.0/16"), .linkLocal),
        (network("172.16.0.0/12"), .privateNetwork),
        (network("192.0.0.0/24"), .reserved),
        (network("192.0.2.0/24"), .reserved),
        (network("192.88.99.0/24"), .reserved),
        (network("192.168.0.0/16"), .privateNetwork),
        (network("198.18.0.0/15"), .reserved),
        (network("198.51.100.0/24"), .reserved),
        (network("203.0.113.0/24"), .reserved),
        (network("224.0.0.0/4"), .multicast),
        (network("240.0.0.0/4"), .reserved),
    ]

    static let ipv6Table: [(IPNetwork, AddressCategory)] = [
        (network("::/128"), .unspecified),
        (network("::1/128"), .loopback),
        (network("64:ff9b:1::/48"), .privateNetwork),
        (network("100::/64"), .reserved),
        (network("2001::/32"), .reserved),  // Teredo: the real IPv4 peer is obfuscated
        (network("2001:db8::/32"), .reserved),
        (network("fc00::/7"), .privateNetwork),
        (network("fe80::/10"), .linkLocal),
        (network("fec0::/10"), .privateNetwork),
        (network("ff00::/8"), .multicast),
    ]

    static let globalUnicast = network("2000::/3")

    package static func classify(_ address: IPAddress) -> AddressCategory {
        switch address {
        case .v4:
            for (range, category) in ipv4Table where range.contains(address) { return category }
            return .global
        case .v6(let high, let low):
            for (range, category) in ipv6Table where range.contains(address) { return category }
            if let embedded = embeddedIPv4(high: high, low: low) { return classify(embedded) }
            return globalUnicast.contains(address) ? .global : .reserved
        }
    }

    /// The IPv4 address an IPv6 address stands for, if it is one of the forms that carry one.
    static func embeddedIPv4(high: UInt64, low: UInt64) -> IPAddress? {
        let low32 = UInt32(truncatingIfNeeded: low)
        if high == 0 {
            switch low >> 32 {
            case 0x0000_FFFF: return .v4(low32)  // ::ffff:a.b.c.d  IPv4-mapped
            case 0: return .v4(low32)  // ::a.b.c.d  IPv4-compatible (deprecated)
            default: break
            }
            if low >> 32 == 0xFFFF_0000 { return .v4(low32) }  // ::ffff:0:a.b.c.d  IPv4-translated
        }
        if high == 0x0064_FF9B_0000_0000, low >> 32 == 0 { return .v4(low32) }  // 64:ff9b::/96  NAT64
        if high >> 48 == 0x2002 { return .v4(UInt32(truncatingIfNeeded: high >> 16)) }  // 2002::/16  6to4
        return nil
    }
}
